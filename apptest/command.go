package apptest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"overwatch/app"
)

// RunCommandFromEnv runs the overwatch command whose arguments
// OVERWATCH_TEST_COMMAND holds, with the process's environment and
// streams, until it ends or the process is interrupted, and exits with
// its status, as the binary would. It returns at once when the variable
// is unset. A suite's TestMain calls it, so that a test can start its own
// test binary as a real overwatch process (one it may kill).
func RunCommandFromEnv() {
	args := os.Getenv("OVERWATCH_TEST_COMMAND")
	if args == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := app.Run(ctx, append([]string{"overwatch"}, strings.Fields(args)...), os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, app.ErrUsage) {
			fmt.Fprintln(os.Stderr, "overwatch:", err)
		}
		os.Exit(1)
	}
	os.Exit(0)
}
