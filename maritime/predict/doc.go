// Package predict is where a vessel goes next and when it arrives there:
// from its recent track, its past calls, its declared destination and ETA
// weighted by its measured destination reliability, the sea-lane routes
// from its last port and the ports' waiting times at anchor, up to three
// next ports with probabilities and, for each, an ETA with an 80% interval.
// It also holds the two baselines the predictions are measured against (the
// declared destination and ETA as broadcast; the vessel's most frequent next
// port) and the backtest that scores predictions against the calls that
// followed. Pure functions over plain values; see docs/predictions.md.
package predict
