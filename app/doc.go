// Package app is the application: it reads the configuration from the
// environment (LoadConfig), opens and migrates the stores, and wires the
// ingest pipeline, the scheduled jobs and the HTTP edge (overwatch/http)
// into the commands of the overwatch binary (Run: run, serve, ingest,
// jobs, import, replay, simulate, migrate, keys, calibration, openapi).
// cmd/overwatch only calls Run with the process's arguments, environment
// and streams; tests call it too (through apptest) to start the whole
// service in process.
package app
