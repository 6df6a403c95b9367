package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
)

// TestMain runs the overwatch command itself when OVERWATCH_TEST_COMMAND
// holds its arguments: tests that must kill a real process (SIGKILL, no
// clean-up) start the test binary this way. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	if args := os.Getenv("OVERWATCH_TEST_COMMAND"); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := run(ctx, append([]string{"overwatch"}, strings.Fields(args)...), os.Getenv, os.Stdout, os.Stderr)
		stop()
		if err != nil {
			if !errors.Is(err, errUsage) {
				fmt.Fprintln(os.Stderr, "overwatch:", err)
			}
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
