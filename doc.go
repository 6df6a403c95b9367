// Package overwatch is the shared vocabulary of the Overwatch service: the
// error kinds of the one error path, the calling account, its plan and what
// the plan allows, the AIS providers, the IMO number, the API-key format,
// rate-limit windows, commodities and the per-user alert states.
//
// It holds types and small rules only: nothing here knows about storage,
// HTTP or the maritime algorithms, which live under maritime/. It imports
// nothing of the project, so every other package may use it.
package overwatch
