// Package country is the service's one country table: UN M49 (Comtrade)
// codes, ISO 3166 alpha-3 and alpha-2 codes, English names and the other
// names sources use, looked up by code (ByCode) or by name or ISO code
// (Lookup). The trade statistics name their reporters and partners with
// it; the sanctions lists' flag states are read as ISO codes with it.
package country
