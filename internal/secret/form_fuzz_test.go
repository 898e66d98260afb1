package secret

import (
	"bytes"
	"net/url"
	"testing"
)

// The form bodies of the pages and the console: any body decodes
// without a panic; the secret field never lands among the fields; a
// value Go's own decoder accepts decodes to the same bytes; and a form a
// browser encodes comes back field for field, the secret byte for byte.
func FuzzParseForm(f *testing.F) {
	for _, seed := range []string{
		"",
		"form=abc&action=answer&secret=Tr0ub4dor+%263+horse%2Bbattery%3D%2520staple%21",
		"secret=a&secret=b",
		"secret=%zz%4",
		"secret=%",
		"action=cancel&secret=",
		"=&&&=",
		"a=%ff%fe&secret=%00%0d%0a",
		"server=12&session=s1&id=ab&csrf=x&secret=%E2%82%AC",
		"secre%74=escaped+name&secret%=x",
	} {
		f.Add([]byte(seed), "answer", "pässword & =+%")
	}
	f.Fuzz(func(t *testing.T, body []byte, field, typed string) {
		fields, secret := ParseForm(body)
		if _, ok := fields["secret"]; ok {
			t.Fatalf("the secret is among the fields: %q", body)
		}
		// The last secret field is the one kept.
		var last []byte
		found := false
		for part := range bytes.SplitSeq(body, []byte("&")) {
			k, v, _ := bytes.Cut(part, []byte("="))
			if name, err := url.QueryUnescape(string(k)); err != nil || name != "secret" {
				continue
			}
			found, last = true, v
		}
		if !found && secret != nil {
			t.Fatalf("a secret from a body without one: %q", body)
		}
		if found {
			if want, err := url.QueryUnescape(string(last)); err == nil && string(secret) != want {
				t.Fatalf("secret %q, Go's decoder %q (body %q)", secret, want, body)
			}
		}

		// What a browser sends for a form of one field and a secret.
		if field == "" || field == "secret" {
			return
		}
		enc := url.Values{field: {typed}, "secret": {typed}}.Encode()
		fields, secret = ParseForm([]byte(enc))
		if fields[field] != typed || string(secret) != typed {
			t.Fatalf("%q: fields %q, secret %q; want %q", enc, fields, secret, typed)
		}
		if len(fields) != 1 {
			t.Fatalf("%q: fields %q", enc, fields)
		}
	})
}
