package main

import (
	"os"
	"strings"
	"testing"
)

// TestMain runs the overwatch command itself when OVERWATCH_TEST_COMMAND
// holds its arguments: tests that must kill a real process (SIGKILL, no
// clean-up) start the test binary this way. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	if args := os.Getenv("OVERWATCH_TEST_COMMAND"); args != "" {
		os.Exit(execute(append([]string{"overwatch"}, strings.Fields(args)...)))
	}
	os.Exit(m.Run())
}
