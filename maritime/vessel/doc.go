// Package vessel is what the service knows of ships apart from where they
// are: the flag of an MMSI from the ITU table of Maritime Identification
// Digits, the build year an IMO number implies, the ITU-R M.1371 ship type
// categories, and deadweight estimated from dimensions.
package vessel
