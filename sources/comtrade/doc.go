// Package comtrade is the UN Comtrade source: its parser, the refresh of
// the trade flows (Flows), the import of its files (ImportFile) and the
// bundled samples (LoadSamples).
//
// Publisher: the United Nations Statistics Division, UN Comtrade Database
// (free use with attribution, per its terms of use; the API needs a
// subscription key). Base URL: OVERWATCH_COMTRADE_URL, the query URLs
// themselves. A URL whose answer fails keeps the flows last stored; the
// other URLs of the run are stored.
//
// The parser reads UN Comtrade trade statistics into the flows of
// maritime/tradestats: the JSON envelope of the v1 data API
// ({"elapsedTime","count","data":[…],"error"}, or just {"data":[…]} as
// some captures keep it) and the bulk files' delimited text (tab- or
// comma-separated, optionally gzipped, with the API's field names as the
// header). Only the totals are kept: motCode 0 (all modes of transport),
// partner2Code 0, customsCode C00 and mosCode 0 where the row carries
// them — the API repeats a flow once per mode of transport, and adding
// the modes double counts. A file parses whole or fails with an error
// naming the row: nothing of a bad file is kept.
package comtrade
