// Package live is the live stream's hub: the events of GET /v1/stream
// (positions and static reports as ingest takes them, risk events as the
// derivation writes them), numbered in order, kept for a while in a ring
// for resumption, and fanned out to subscribers each with a bounded
// buffer. Publishing never blocks: a subscriber whose buffer is full is
// dropped with a reason, and a hub that falls behind its publishers
// drops its events and its subscribers rather than slow them down.
// It imports nothing of the project but the root and the domain.
package live
