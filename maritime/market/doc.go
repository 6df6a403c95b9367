// Package market is the vocabulary of published commodity prices and
// transport rates: the Price and Rate observations the parsers in
// sources/market produce, commodity names and their synonyms, the units the
// sources publish and their conversion to USD per metric tonne (bushel
// weights, short tons, the crude-oil barrel convention), the 1976 barge
// benchmark tariffs (Tariff No. 7) that turn a percent-of-tariff barge
// rate into dollars, and MatchRegion, the fuzzy location match of the
// transport-data region parameter. It imports no storage and no HTTP;
// docs/market-sources.md lists each source, its units and its quirks.
package market
