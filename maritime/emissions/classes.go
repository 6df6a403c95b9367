package emissions

// FuelType is a marine fuel of the emissions model (the fuel_type parameter).
type FuelType string

// The fuels of the emissions model. VLSFO is taken as HFO (RME-RMK grades)
// for its carbon factor, SFC and well-to-tank factor.
const (
	FuelVLSFO    FuelType = "vlsfo"
	FuelMGO      FuelType = "mgo"
	FuelLNG      FuelType = "lng"
	FuelMethanol FuelType = "methanol"
)

// FuelTypes lists the fuels in the order the API documents them.
var FuelTypes = []FuelType{FuelVLSFO, FuelMGO, FuelLNG, FuelMethanol}

// ParseFuelType returns the fuel named s.
func ParseFuelType(s string) (FuelType, bool) {
	for _, f := range FuelTypes {
		if string(f) == s {
			return f, true
		}
	}
	return "", false
}

// VesselClass is the ship type the model's tables are keyed by.
type VesselClass string

// The vessel classes of the emissions model.
const (
	ClassBulkCarrier    VesselClass = "bulk_carrier"
	ClassOilTanker      VesselClass = "oil_tanker"
	ClassChemicalTanker VesselClass = "chemical_tanker"
	ClassContainer      VesselClass = "container"
	ClassGeneralCargo   VesselClass = "general_cargo"
	ClassLNGCarrier     VesselClass = "lng_carrier"
	ClassGasCarrier     VesselClass = "gas_carrier"
	ClassOther          VesselClass = "other"
)

// VesselClasses lists the vessel classes.
var VesselClasses = []VesselClass{ClassBulkCarrier, ClassOilTanker, ClassChemicalTanker,
	ClassContainer, ClassGeneralCargo, ClassLNGCarrier, ClassGasCarrier, ClassOther}

// classTables names, per class, the EEXI regression (me.mcr.<x>, me.vref.<x>)
// and the auxiliary power table (aux_kw.<x>) the model uses.
var classTables = map[VesselClass][2]string{
	ClassBulkCarrier: {"bulk_carrier", "bulk_carrier"}, ClassOilTanker: {"tanker", "oil_tanker"},
	ClassChemicalTanker: {"tanker", "chemical_tanker"}, ClassContainer: {"container", "container"},
	ClassGeneralCargo: {"general_cargo", "general_cargo"}, ClassLNGCarrier: {"lng_carrier", "liquefied_gas"},
	ClassGasCarrier: {"gas_carrier", "liquefied_gas"}, ClassOther: {"general_cargo", "other"},
}

// ParseVesselClass returns the class named s.
func ParseVesselClass(s string) (VesselClass, bool) {
	_, ok := classTables[VesselClass(s)]
	return VesselClass(s), ok
}

// VesselClassOf maps an AIS ship type code to a class when nothing better is
// known: cargo (70-79) to bulk carrier, the commodity trades this service
// follows; tanker (80-89) to oil tanker; everything else to other.
func VesselClassOf(shipType uint8) VesselClass {
	switch {
	case shipType >= 70 && shipType <= 79:
		return ClassBulkCarrier
	case shipType >= 80 && shipType <= 89:
		return ClassOilTanker
	}
	return ClassOther
}

// DefaultFuel is the fuel assumed for a class: LNG for LNG carriers (boil-off
// gas), VLSFO for every other class.
func DefaultFuel(c VesselClass) FuelType {
	if c == ClassLNGCarrier {
		return FuelLNG
	}
	return FuelVLSFO
}
