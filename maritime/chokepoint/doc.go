// Package chokepoint is the eight maritime chokepoints the service watches
// (Suez, Bab el-Mandeb, Hormuz, Malacca, Panama, Bosporus, Gibraltar, Cape
// of Good Hope): their gates (Natural Earth sea polygons where they are
// usable at 1:10m, otherwise gate lines between the World Port Index
// gateway ports or named shore points), the transits a vessel track makes
// through them, the daily transit counts by vessel type, and the two
// signals read from those counts: "transit_drop" (traffic well below its
// norm) and "diversion" (the traffic that used a chokepoint going around
// by its alternative instead).
package chokepoint
