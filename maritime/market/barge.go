package market

import "strings"

// Barge rates on the Mississippi River System are quoted in percent of
// the benchmark of Bulk Grain and Grain Products Freight Tariff No. 7 of
// the Waterways Freight Bureau (ICC), which stopped applying in 1976; the
// trade still uses each location's 1976 benchmark as its rate unit:
// USD per short ton = percent of tariff * benchmark / 100.
//
// The benchmarks, in USD per short ton, as published in the description of
// the USDA AgTransport dataset deqi-uken "Downbound Grain Barge Rates"
// ("Twin Cities = 619; Mid-Mississippi = 532; St. Louis = 399; Illinois =
// 464; Cincinnati = 469; Lower Ohio = 446; and Cairo-Memphis = 314", in
// cents) and in the USDA Grain Transportation Report's barge glossary
// (reprinted in Marine News, May 2021, with the ports each covers). Six of
// them also appear in a public client quoted in
// /work/shared/data/freight/NOTES.md; Cairo-Memphis (3.14) is flagged
// there as "not verified here" and is confirmed by the dataset
// description above, which is the source this table follows.
//
// | location        | benchmark | ports included (GTR glossary)                         |
// |-----------------|-----------|-------------------------------------------------------|
// | Twin Cities     | 6.19      | Minneapolis, St. Paul, Red Wing, Shakopee, Winona, MN |
// | Mid-Mississippi | 5.32      | Rock Island, IL; Clinton, Davenport, Muscatine, IA    |
// | Illinois River  | 4.64      | Beardstown, Florence, Hardin, Havana, Meredosia, IL   |
// | St. Louis       | 3.99      | Alton, E. St. Louis, IL; Cape Girardeau, St. Louis, MO|
// | Cincinnati      | 4.69      | Cincinnati, OH                                        |
// | Lower Ohio      | 4.46      | Louisville, KY                                        |
// | Cairo-Memphis   | 3.14      | Birds Point, Linda, New Madrid, MO; Hickman, KY; Cairo|

// BargeBenchmarkSource names where the benchmark table comes from.
const BargeBenchmarkSource = "USDA AgTransport dataset deqi-uken description; USDA Grain Transportation Report barge glossary (Tariff No. 7, 1976 benchmarks)"

var bargeBenchmarks = map[string]float64{
	"twin cities":     6.19,
	"mid mississippi": 5.32,
	"illinois":        4.64,
	"illinois river":  4.64,
	"lower illinois":  4.64,
	"st louis":        3.99,
	"saint louis":     3.99,
	"cincinnati":      4.69,
	"lower ohio":      4.46,
	"cairo memphis":   3.14,
}

// BargeBenchmark returns the 1976 Tariff No. 7 benchmark, in USD per short
// ton, of a barge-rate location as deqi-uken names it ("St. Louis",
// "Lower Illinois", "Cairo-Memphis"; case, punctuation and dash style do
// not matter), and false for a location without one.
func BargeBenchmark(location string) (usdPerShortTon float64, ok bool) {
	v, ok := bargeBenchmarks[strings.Join(words(location), " ")]
	return v, ok
}
