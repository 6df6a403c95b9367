// Package overwatch is the shared vocabulary of the Overwatch service: the
// error kinds of the one error path, the calling account and its tier, the
// AIS providers, the API-key format and the 40 reference ports.
//
// It imports nothing of the project, so every other package may use it.
package overwatch
