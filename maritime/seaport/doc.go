// Package seaport is the 40 reference ports (ports.json: real places from
// the NGA World Port Index with their UN/LOCODEs, port areas, anchorages and
// berth zones, and stable UUIDs), a spatial index that finds the port area
// holding a point, and the normalisation of the free-text destinations crews
// type into AIS to the port they name.
package seaport
