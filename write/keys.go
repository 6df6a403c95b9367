package write

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// MaxActiveKeys is how many unrevoked keys one account may hold.
const MaxActiveKeys = 20

// KeyWarning is sent with every new key.
const KeyWarning = "Store this key now: it is shown only once and cannot be recovered. Anyone holding it can use your plan's quota."

// NewKey is a key to store: only its hash and visible prefix.
type NewKey struct {
	AccountID int64
	Name      string
	Prefix    string
	Hash      overwatch.KeyHash
}

// KeyCreator stores a new key for an account unless the account already
// holds maxActive unrevoked keys (a Conflict error).
type KeyCreator interface {
	CreateKey(ctx context.Context, key NewKey, maxActive int) (id int64, err error)
}

// CreatedKey is the body of POST /v1/keys; APIKey is shown only here.
type CreatedKey struct {
	APIKey  string `json:"api_key"`
	Warning string `json:"warning"`
	ID      int64  `json:"id"`
	Prefix  string `json:"prefix"`
	Name    string `json:"name"`
}

type createKeyRequest struct {
	Name string `json:"name"`
}

// validate checks the request and normalises the name.
func (r *createKeyRequest) validate() error {
	r.Name = strings.TrimSpace(r.Name)
	if utf8.RuneCountInString(r.Name) > 100 {
		return overwatch.Errorf(overwatch.Invalid, "name must be at most 100 characters")
	}
	return nil
}

// KeyStore creates and revokes keys.
type KeyStore interface {
	KeyCreator
	KeyRevoker
}

// keyRoutes mounts key creation and revocation.
func keyRoutes(r route.Router, s KeyStore, now func() time.Time) {
	r.Handle(fiber.MethodPost, "/keys", overwatch.AccessKey, CreateKey(s))
	r.Handle(fiber.MethodDelete, "/keys/:id", overwatch.AccessKey, RevokeKey(s, now))
}

// CreateKey serves POST /v1/keys: a new key on the caller's account, with
// the account's plan. The body is optional: {"name": "..."}.
func CreateKey(store KeyCreator) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var req createKeyRequest
		if body := c.Body(); len(strings.TrimSpace(string(body))) > 0 {
			if err := json.Unmarshal(body, &req); err != nil {
				return overwatch.Errorf(overwatch.Invalid, "body must be a JSON object like {\"name\": \"...\"}")
			}
		}
		if err := req.validate(); err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		key, prefix, hash, err := overwatch.NewAPIKey()
		if err != nil {
			return err
		}
		id, err := store.CreateKey(c.UserContext(), NewKey{AccountID: caller.AccountID, Name: req.Name, Prefix: prefix, Hash: hash}, MaxActiveKeys)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(fiber.StatusCreated).JSON(CreatedKey{APIKey: key, Warning: KeyWarning, ID: id, Prefix: prefix, Name: req.Name})
	}
}
