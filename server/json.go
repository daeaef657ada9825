package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// apiError is the body of every error answer.
type apiError struct {
	Error string `json:"error"`
}

// jsonHeaders are the values of every JSON answer's headers, shared by
// all answers (net/http only reads them).
var (
	jsonType = []string{"application/json; charset=utf-8"}
	noStore  = []string{"no-store"}
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h["Content-Type"], h["Cache-Control"] = jsonType, noStore
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apiError{Error: msg})
}

// decodeBody reads one JSON object of at most MaxBody bytes into v,
// whatever the Content-Type (curl -d sends a form type by default). It
// answers the client itself and returns false on any problem: a body that
// is too large, not JSON, not one object, or has fields v does not know
// (a misspelt "url" for "urls" should not silently check nothing).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeBodyMax(w, r, v, MaxBody)
}

// decodeBodyMax is decodeBody with another size limit.
func decodeBodyMax(w http.ResponseWriter, r *http.Request, v any, limit int64) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if dec.More() || dec.Decode(&struct{}{}) != io.EOF {
			err = errors.New("extra data after the JSON object")
		}
	}
	if err == nil {
		return true
	}
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "request body is over "+sizeText(int(limit)))
	case errors.Is(err, io.EOF):
		writeError(w, http.StatusBadRequest, "empty request body: send a JSON object")
	case errors.As(err, &syntax):
		writeError(w, http.StatusBadRequest, fmt.Sprintf("malformed JSON at byte %d: %v", syntax.Offset, err))
	case errors.As(err, &typ):
		if typ.Field != "" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("field %q must be %s, not a JSON %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value))
		} else {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the body must be a JSON object, not a JSON %s", typ.Value))
		}
	case errors.Is(err, io.ErrUnexpectedEOF):
		writeError(w, http.StatusBadRequest, "malformed JSON: the body ends early")
	default:
		writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
	}
	return false
}

// sizeText writes a byte count as "1048576 bytes (1 MiB)", naming the
// binary unit only when the count is a whole number of it.
func sizeText(n int) string {
	s := fmt.Sprintf("%d bytes", n)
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		s += fmt.Sprintf(" (%d MiB)", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		s += fmt.Sprintf(" (%d KiB)", n>>10)
	}
	return s
}

func jsonKind(k string) string {
	switch k { // "string" and the rest: "a " + k
	case "slice", "array":
		return "an array"
	case "bool":
		return "true or false"
	case "struct", "map":
		return "an object"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	}
	return "a " + k
}
