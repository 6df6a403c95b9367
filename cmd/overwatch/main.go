// Command overwatch is the maritime-intelligence service: the HTTP API, AIS
// ingest, and the operator's commands (migrate, replay, keys).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"overwatch/app"
)

func main() {
	os.Exit(execute(os.Args))
}

// execute runs the command of args with the process's environment and
// standard streams until it ends or the process is interrupted (SIGINT,
// SIGTERM), and returns the exit status.
func execute(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := app.Run(ctx, args, os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, app.ErrUsage) {
			fmt.Fprintln(os.Stderr, "overwatch:", err)
		}
		return 1
	}
	return 0
}
