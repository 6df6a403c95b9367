package e2e

import (
	"os"
	"testing"

	"overwatch/apptest"
)

// TestMain runs the overwatch command itself when OVERWATCH_TEST_COMMAND
// holds its arguments (apptest.RunCommandFromEnv): tests that must kill a
// real process (SIGKILL, no clean-up) start the test binary this way.
// Otherwise it runs the tests.
func TestMain(m *testing.M) {
	apptest.RunCommandFromEnv()
	os.Exit(m.Run())
}
