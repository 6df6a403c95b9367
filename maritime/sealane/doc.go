// Package sealane is the sea-lane graph (sealanes.json) that routes voyages
// between the reference ports through straits, canals and capes, over water
// on the land mask: the route between two ports, its waypoints and distance.
package sealane
