package overwatch

import (
	"crypto/rand"
	"crypto/sha256"
	"hash/crc32"
	"math/big"
	"strings"
)

// API keys look like "ow_" + 43 base62 characters of a 256-bit random secret
// + 6 base62 characters of its CRC-32. The prefix makes a leaked key easy to
// recognise and to scan for; the checksum rejects typos and guesses without a
// database lookup. Only the SHA-256 of the whole key is stored.
const (
	KeyPrefix     = "ow_"
	keySecretLen  = 43 // base62 digits of 2^256
	keyCheckLen   = 6  // base62 digits of 2^32
	keyLen        = len(KeyPrefix) + keySecretLen + keyCheckLen
	keyVisibleLen = len(KeyPrefix) + 8
	base62        = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// KeyHash is the SHA-256 of an API key, the only form in which keys are stored.
type KeyHash [sha256.Size]byte

// NewAPIKey returns a new random key, its visible prefix and its hash.
func NewAPIKey() (key, prefix string, hash KeyHash, err error) {
	var secret [32]byte
	if _, err = rand.Read(secret[:]); err != nil {
		return "", "", KeyHash{}, err
	}
	body := encodeBase62(secret[:], keySecretLen)
	key = KeyPrefix + body + keyChecksum(body)
	return key, key[:keyVisibleLen], sha256.Sum256([]byte(key)), nil
}

// ParseAPIKey checks the key's form and checksum and returns its hash.
func ParseAPIKey(key string) (KeyHash, bool) {
	if len(key) != keyLen || !strings.HasPrefix(key, KeyPrefix) {
		return KeyHash{}, false
	}
	body := key[len(KeyPrefix) : len(KeyPrefix)+keySecretLen]
	for i := len(KeyPrefix); i < len(key); i++ {
		if strings.IndexByte(base62, key[i]) < 0 {
			return KeyHash{}, false
		}
	}
	if keyChecksum(body) != key[len(KeyPrefix)+keySecretLen:] {
		return KeyHash{}, false
	}
	return sha256.Sum256([]byte(key)), true
}

func keyChecksum(body string) string {
	sum := crc32.ChecksumIEEE([]byte(body))
	return encodeBase62([]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)}, keyCheckLen)
}

// encodeBase62 writes b as a big-endian number in base 62, left-padded with
// zeros to width digits.
func encodeBase62(b []byte, width int) string {
	n := new(big.Int).SetBytes(b)
	out := make([]byte, width)
	base := big.NewInt(62)
	mod := new(big.Int)
	for i := width - 1; i >= 0; i-- {
		n.DivMod(n, base, mod)
		out[i] = base62[mod.Int64()]
	}
	return string(out)
}
