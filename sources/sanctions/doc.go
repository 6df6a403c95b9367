// Package sanctions is the OFAC sanctions-list source: the parser of the
// legacy SDN files (ParseSDN, its flag names read as ISO codes by
// FlagCode), their fetch from one base URL (Fetch) and the scheduled
// refresh that replaces the list whole (Refresh); `overwatch import
// sanctions` calls the same functions on files or a URL.
//
// Publisher: the U.S. Treasury's Office of Foreign Assets Control,
// Sanctions List Service (public domain, U.S. Government work). Base URL:
// OVERWATCH_SANCTIONS_URL (the exports folder holding SDN.CSV, ALT.CSV
// and SDN_COMMENTS.CSV). A fetch or parse that fails replaces nothing: the
// list last imported stays.
package sanctions
