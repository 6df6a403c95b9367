// Package feed holds the AIS sources: raw NMEA over TCP (the format AISHub
// and Spire stream) and over UDP (what receivers send), the aisstream.io
// WebSocket, the AISHub web service, and files. Each source is tagged with
// the provider it stands for, turns what it receives into ingest reports,
// and hands them to a sink (the ingest pipeline).
package feed
