package vessel

import (
	"slices"
	"strings"
)

// midFlag is one row of the MID table: a Maritime Identification Digits
// number and the ISO 3166-1 alpha-2 code of the country or territory it
// stands for.
type midFlag struct {
	mid  int
	flag string
}

// midTable is the ITU table of Maritime Identification Digits, sorted by MID.
//
// Source: the MID list of the ITU MARS database ("Table of Maritime
// Identification Digits", itu.int/en/ITU-R/terrestrial/fmd/Pages/mid.aspx),
// the allocations as they stood in 2023 (292 MIDs, 201 to 775, including
// 374 Panama and 471 United Arab Emirates), reconstructed and checked
// against a transcription of that page dated 2023-09-04. The numbering
// scheme is that of ITU-R M.585-9.
//
// Where the ITU lists a MID under a territory that has its own ISO 3166-1
// code, the territory's code is used (Gibraltar GI, Hong Kong HK, Réunion
// RE, the French Southern Territories TF, ...). Where the territory has
// none, the administering country's code is used (Azores and Madeira PT,
// Alaska US, Adélie Land FR). MID 306 is shared by Curaçao, Sint Maarten and
// Bonaire, Sint Eustatius and Saba; it reads as Curaçao (CW), see midShared.
var midTable = []midFlag{
	{201, "AL"}, // Albania
	{202, "AD"}, // Andorra
	{203, "AT"}, // Austria
	{204, "PT"}, // Portugal - Azores
	{205, "BE"}, // Belgium
	{206, "BY"}, // Belarus
	{207, "BG"}, // Bulgaria
	{208, "VA"}, // Vatican City State
	{209, "CY"}, // Cyprus
	{210, "CY"}, // Cyprus
	{211, "DE"}, // Germany
	{212, "CY"}, // Cyprus
	{213, "GE"}, // Georgia
	{214, "MD"}, // Moldova
	{215, "MT"}, // Malta
	{216, "AM"}, // Armenia
	{218, "DE"}, // Germany
	{219, "DK"}, // Denmark
	{220, "DK"}, // Denmark
	{224, "ES"}, // Spain
	{225, "ES"}, // Spain
	{226, "FR"}, // France
	{227, "FR"}, // France
	{228, "FR"}, // France
	{229, "MT"}, // Malta
	{230, "FI"}, // Finland
	{231, "FO"}, // Denmark - Faroe Islands
	{232, "GB"}, // United Kingdom
	{233, "GB"}, // United Kingdom
	{234, "GB"}, // United Kingdom
	{235, "GB"}, // United Kingdom
	{236, "GI"}, // United Kingdom - Gibraltar
	{237, "GR"}, // Greece
	{238, "HR"}, // Croatia
	{239, "GR"}, // Greece
	{240, "GR"}, // Greece
	{241, "GR"}, // Greece
	{242, "MA"}, // Morocco
	{243, "HU"}, // Hungary
	{244, "NL"}, // Netherlands
	{245, "NL"}, // Netherlands
	{246, "NL"}, // Netherlands
	{247, "IT"}, // Italy
	{248, "MT"}, // Malta
	{249, "MT"}, // Malta
	{250, "IE"}, // Ireland
	{251, "IS"}, // Iceland
	{252, "LI"}, // Liechtenstein
	{253, "LU"}, // Luxembourg
	{254, "MC"}, // Monaco
	{255, "PT"}, // Portugal - Madeira
	{256, "MT"}, // Malta
	{257, "NO"}, // Norway
	{258, "NO"}, // Norway
	{259, "NO"}, // Norway
	{261, "PL"}, // Poland
	{262, "ME"}, // Montenegro
	{263, "PT"}, // Portugal
	{264, "RO"}, // Romania
	{265, "SE"}, // Sweden
	{266, "SE"}, // Sweden
	{267, "SK"}, // Slovak Republic
	{268, "SM"}, // San Marino
	{269, "CH"}, // Switzerland
	{270, "CZ"}, // Czech Republic
	{271, "TR"}, // Türkiye
	{272, "UA"}, // Ukraine
	{273, "RU"}, // Russian Federation
	{274, "MK"}, // North Macedonia
	{275, "LV"}, // Latvia
	{276, "EE"}, // Estonia
	{277, "LT"}, // Lithuania
	{278, "SI"}, // Slovenia
	{279, "RS"}, // Serbia
	{301, "AI"}, // United Kingdom - Anguilla
	{303, "US"}, // United States - Alaska
	{304, "AG"}, // Antigua and Barbuda
	{305, "AG"}, // Antigua and Barbuda
	{306, "CW"}, // Netherlands - Curaçao, Sint Maarten, Bonaire, Sint Eustatius and Saba
	{307, "AW"}, // Netherlands - Aruba
	{308, "BS"}, // Bahamas
	{309, "BS"}, // Bahamas
	{310, "BM"}, // United Kingdom - Bermuda
	{311, "BS"}, // Bahamas
	{312, "BZ"}, // Belize
	{314, "BB"}, // Barbados
	{316, "CA"}, // Canada
	{319, "KY"}, // United Kingdom - Cayman Islands
	{321, "CR"}, // Costa Rica
	{323, "CU"}, // Cuba
	{325, "DM"}, // Dominica
	{327, "DO"}, // Dominican Republic
	{329, "GP"}, // France - Guadeloupe
	{330, "GD"}, // Grenada
	{331, "GL"}, // Denmark - Greenland
	{332, "GT"}, // Guatemala
	{334, "HN"}, // Honduras
	{336, "HT"}, // Haiti
	{338, "US"}, // United States
	{339, "JM"}, // Jamaica
	{341, "KN"}, // Saint Kitts and Nevis
	{343, "LC"}, // Saint Lucia
	{345, "MX"}, // Mexico
	{347, "MQ"}, // France - Martinique
	{348, "MS"}, // United Kingdom - Montserrat
	{350, "NI"}, // Nicaragua
	{351, "PA"}, // Panama
	{352, "PA"}, // Panama
	{353, "PA"}, // Panama
	{354, "PA"}, // Panama
	{355, "PA"}, // Panama
	{356, "PA"}, // Panama
	{357, "PA"}, // Panama
	{358, "PR"}, // United States - Puerto Rico
	{359, "SV"}, // El Salvador
	{361, "PM"}, // France - Saint Pierre and Miquelon
	{362, "TT"}, // Trinidad and Tobago
	{364, "TC"}, // United Kingdom - Turks and Caicos Islands
	{366, "US"}, // United States
	{367, "US"}, // United States
	{368, "US"}, // United States
	{369, "US"}, // United States
	{370, "PA"}, // Panama
	{371, "PA"}, // Panama
	{372, "PA"}, // Panama
	{373, "PA"}, // Panama
	{374, "PA"}, // Panama
	{375, "VC"}, // Saint Vincent and the Grenadines
	{376, "VC"}, // Saint Vincent and the Grenadines
	{377, "VC"}, // Saint Vincent and the Grenadines
	{378, "VG"}, // United Kingdom - British Virgin Islands
	{379, "VI"}, // United States - United States Virgin Islands
	{401, "AF"}, // Afghanistan
	{403, "SA"}, // Saudi Arabia
	{405, "BD"}, // Bangladesh
	{408, "BH"}, // Bahrain
	{410, "BT"}, // Bhutan
	{412, "CN"}, // China
	{413, "CN"}, // China
	{414, "CN"}, // China
	{416, "TW"}, // China - Taiwan
	{417, "LK"}, // Sri Lanka
	{419, "IN"}, // India
	{422, "IR"}, // Iran
	{423, "AZ"}, // Azerbaijan
	{425, "IQ"}, // Iraq
	{428, "IL"}, // Israel
	{431, "JP"}, // Japan
	{432, "JP"}, // Japan
	{434, "TM"}, // Turkmenistan
	{436, "KZ"}, // Kazakhstan
	{437, "UZ"}, // Uzbekistan
	{438, "JO"}, // Jordan
	{440, "KR"}, // Korea (Republic of)
	{441, "KR"}, // Korea (Republic of)
	{443, "PS"}, // State of Palestine
	{445, "KP"}, // Democratic People's Republic of Korea
	{447, "KW"}, // Kuwait
	{450, "LB"}, // Lebanon
	{451, "KG"}, // Kyrgyz Republic
	{453, "MO"}, // China - Macao
	{455, "MV"}, // Maldives
	{457, "MN"}, // Mongolia
	{459, "NP"}, // Nepal
	{461, "OM"}, // Oman
	{463, "PK"}, // Pakistan
	{466, "QA"}, // Qatar
	{468, "SY"}, // Syrian Arab Republic
	{470, "AE"}, // United Arab Emirates
	{471, "AE"}, // United Arab Emirates
	{472, "TJ"}, // Tajikistan
	{473, "YE"}, // Yemen
	{475, "YE"}, // Yemen
	{477, "HK"}, // China - Hong Kong
	{478, "BA"}, // Bosnia and Herzegovina
	{501, "FR"}, // France - Adélie Land
	{503, "AU"}, // Australia
	{506, "MM"}, // Myanmar
	{508, "BN"}, // Brunei Darussalam
	{510, "FM"}, // Micronesia
	{511, "PW"}, // Palau
	{512, "NZ"}, // New Zealand
	{514, "KH"}, // Cambodia
	{515, "KH"}, // Cambodia
	{516, "CX"}, // Australia - Christmas Island
	{518, "CK"}, // New Zealand - Cook Islands
	{520, "FJ"}, // Fiji
	{523, "CC"}, // Australia - Cocos (Keeling) Islands
	{525, "ID"}, // Indonesia
	{529, "KI"}, // Kiribati
	{531, "LA"}, // Lao People's Democratic Republic
	{533, "MY"}, // Malaysia
	{536, "MP"}, // United States - Northern Mariana Islands
	{538, "MH"}, // Marshall Islands
	{540, "NC"}, // France - New Caledonia
	{542, "NU"}, // New Zealand - Niue
	{544, "NR"}, // Nauru
	{546, "PF"}, // France - French Polynesia
	{548, "PH"}, // Philippines
	{550, "TL"}, // Timor-Leste
	{553, "PG"}, // Papua New Guinea
	{555, "PN"}, // United Kingdom - Pitcairn Island
	{557, "SB"}, // Solomon Islands
	{559, "AS"}, // United States - American Samoa
	{561, "WS"}, // Samoa
	{563, "SG"}, // Singapore
	{564, "SG"}, // Singapore
	{565, "SG"}, // Singapore
	{566, "SG"}, // Singapore
	{567, "TH"}, // Thailand
	{570, "TO"}, // Tonga
	{572, "TV"}, // Tuvalu
	{574, "VN"}, // Viet Nam
	{576, "VU"}, // Vanuatu
	{577, "VU"}, // Vanuatu
	{578, "WF"}, // France - Wallis and Futuna
	{601, "ZA"}, // South Africa
	{603, "AO"}, // Angola
	{605, "DZ"}, // Algeria
	{607, "TF"}, // France - Saint Paul and Amsterdam Islands
	{608, "SH"}, // United Kingdom - Ascension Island
	{609, "BI"}, // Burundi
	{610, "BJ"}, // Benin
	{611, "BW"}, // Botswana
	{612, "CF"}, // Central African Republic
	{613, "CM"}, // Cameroon
	{615, "CG"}, // Congo
	{616, "KM"}, // Comoros
	{617, "CV"}, // Cabo Verde
	{618, "TF"}, // France - Crozet Archipelago
	{619, "CI"}, // Côte d'Ivoire
	{620, "KM"}, // Comoros
	{621, "DJ"}, // Djibouti
	{622, "EG"}, // Egypt
	{624, "ET"}, // Ethiopia
	{625, "ER"}, // Eritrea
	{626, "GA"}, // Gabon
	{627, "GH"}, // Ghana
	{629, "GM"}, // Gambia
	{630, "GW"}, // Guinea-Bissau
	{631, "GQ"}, // Equatorial Guinea
	{632, "GN"}, // Guinea
	{633, "BF"}, // Burkina Faso
	{634, "KE"}, // Kenya
	{635, "TF"}, // France - Kerguelen Islands
	{636, "LR"}, // Liberia
	{637, "LR"}, // Liberia
	{638, "SS"}, // South Sudan
	{642, "LY"}, // Libya
	{644, "LS"}, // Lesotho
	{645, "MU"}, // Mauritius
	{647, "MG"}, // Madagascar
	{649, "ML"}, // Mali
	{650, "MZ"}, // Mozambique
	{654, "MR"}, // Mauritania
	{655, "MW"}, // Malawi
	{656, "NE"}, // Niger
	{657, "NG"}, // Nigeria
	{659, "NA"}, // Namibia
	{660, "RE"}, // France - Réunion
	{661, "RW"}, // Rwanda
	{662, "SD"}, // Sudan
	{663, "SN"}, // Senegal
	{664, "SC"}, // Seychelles
	{665, "SH"}, // United Kingdom - Saint Helena
	{666, "SO"}, // Somalia
	{667, "SL"}, // Sierra Leone
	{668, "ST"}, // Sao Tome and Principe
	{669, "SZ"}, // Eswatini
	{670, "TD"}, // Chad
	{671, "TG"}, // Togo
	{672, "TN"}, // Tunisia
	{674, "TZ"}, // Tanzania
	{675, "UG"}, // Uganda
	{676, "CD"}, // Democratic Republic of the Congo
	{677, "TZ"}, // Tanzania
	{678, "ZM"}, // Zambia
	{679, "ZW"}, // Zimbabwe
	{701, "AR"}, // Argentina
	{710, "BR"}, // Brazil
	{720, "BO"}, // Bolivia
	{725, "CL"}, // Chile
	{730, "CO"}, // Colombia
	{735, "EC"}, // Ecuador
	{740, "FK"}, // United Kingdom - Falkland Islands (Malvinas)
	{745, "GF"}, // France - French Guiana
	{750, "GY"}, // Guyana
	{755, "PY"}, // Paraguay
	{760, "PE"}, // Peru
	{765, "SR"}, // Suriname
	{770, "UY"}, // Uruguay
	{775, "VE"}, // Venezuela
}

// midShared lists the flags that share a MID with the flag midTable gives
// for it: MIDsOfFlag returns these MIDs for them, though FlagOfMMSI cannot
// tell them apart and reads the MID as the table's flag.
var midShared = map[string][]int{
	"BQ": {306}, // Bonaire, Sint Eustatius and Saba (table: Curaçao)
	"SX": {306}, // Sint Maarten (table: Curaçao)
}

// flagOfMID returns the ISO 3166-1 alpha-2 code of a MID, "" when the MID is
// not allocated.
func flagOfMID(mid int) string {
	i, ok := slices.BinarySearchFunc(midTable, mid, func(r midFlag, mid int) int { return r.mid - mid })
	if !ok {
		return ""
	}
	return midTable[i].flag
}

// midOfMMSI returns the MID embedded in an MMSI by the formats of ITU-R
// M.585-9, read as nine decimal digits with leading zeros. It returns false
// for the non-country forms (970 AIS-SART, 972 MOB, 974 EPIRB-AIS and the
// rest of 9xx but 98 and 99), for unassigned leading digits and for numbers
// of more than nine digits.
func midOfMMSI(mmsi uint32) (int, bool) {
	m := int(mmsi)
	switch {
	case m >= 1_000_000_000:
		return 0, false
	case m >= 200_000_000 && m < 800_000_000: // MIDXXXXXX ship station
		return m / 1_000_000, true
	case m >= 800_000_000 && m < 900_000_000: // 8MIDXXXXX handheld VHF with DSC and GNSS
		return m / 100_000 % 1000, true
	case m >= 980_000_000: // 98MIDXXXX craft associated with a parent ship, 99MIDXXXX aid to navigation
		return m / 10_000 % 1000, true
	case m >= 111_000_000 && m < 112_000_000: // 111MIDXXX SAR aircraft
		return m / 1000 % 1000, true
	case m >= 10_000_000 && m < 100_000_000: // 0MIDXXXXX group ship station call
		return m / 100_000, true
	case m < 10_000_000: // 00MIDXXXX coast station or group of coast stations
		return m / 10_000, true
	}
	return 0, false
}

// FlagOfMMSI returns the ISO 3166-1 alpha-2 flag of the country whose MID an
// MMSI carries, "" when it is unknown. A ship station MMSI is nine digits,
// the first three the MID; the other forms of ITU-R M.585 are read too:
// group calls 0MIDXXXXX, coast stations 00MIDXXXX, SAR aircraft 111MIDXXX,
// handhelds 8MIDXXXXX, craft of a parent ship 98MIDXXXX and aids to
// navigation 99MIDXXXX. AIS-SART (970), MOB (972) and EPIRB-AIS (974)
// numbers name no country and give "", as do numbers of more than nine
// digits. The number is read with leading zeros up to nine digits, as AIS
// carries it.
func FlagOfMMSI(mmsi uint32) string {
	mid, ok := midOfMMSI(mmsi)
	if !ok {
		return ""
	}
	return flagOfMID(mid)
}

// MIDsOfFlag returns every MID allocated to the country or territory with the
// ISO 3166-1 alpha-2 code flag, ascending, or nil when it has none. The code
// is matched without regard to case. Bonaire (BQ) and Sint Maarten (SX) get
// 306, which they share with Curaçao. The slice is the caller's own.
func MIDsOfFlag(flag string) []int {
	flag = strings.ToUpper(flag)
	if shared, ok := midShared[flag]; ok {
		return slices.Clone(shared)
	}
	var mids []int
	for _, r := range midTable {
		if r.flag == flag {
			mids = append(mids, r.mid)
		}
	}
	return mids
}
