package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

// bashLikeDetails has the shape of bash's details: a "stdout" object that
// meets the "stdout" content field.
type bashLikeDetails struct {
	ExitCode *int          `json:"exit_code"`
	TimedOut bool          `json:"timed_out"`
	Stdout   streamDetails `json:"stdout"`
	Stderr   streamDetails `json:"stderr"`
}

type streamDetails struct {
	Truncation     output.Truncation `json:"truncation"`
	FullOutputPath string            `json:"full_output_path,omitempty"`
}

func TestEnvelope(t *testing.T) {
	zero := 0
	bash := bashLikeDetails{ExitCode: &zero, Stdout: streamDetails{
		Truncation:     output.Truncation{Truncated: true, TruncatedBy: "lines", TotalLines: 3, OutputLines: 2},
		FullOutputPath: "/tmp/spillway-1-ab/bash-1-stdout.log",
	}}
	tests := []struct {
		name    string
		details any
		content []Field
		want    string
	}{
		{
			name:    "bash",
			details: bash,
			content: []Field{{"stdout", "a <b> & c\n"}, {"stderr", ""}},
			want: `{"ok":true,"data":{"exit_code":0,"timed_out":false,` +
				`"stdout_truncation":{"truncated":true,"truncated_by":"lines","total_lines":3,"total_bytes":0,"output_lines":2,"output_bytes":0,"lines_cut":0,"first_line_partial":false,"last_line_partial":false},` +
				`"stdout_full_output_path":"/tmp/spillway-1-ab/bash-1-stdout.log",` +
				`"stderr_truncation":{"truncated":false,"truncated_by":"","total_lines":0,"total_bytes":0,"output_lines":0,"output_bytes":0,"lines_cut":0,"first_line_partial":false,"last_line_partial":false},` +
				`"stdout":"a <b> & c\n","stderr":""}}`,
		},
		{
			name:    "read",
			details: map[string]any{"path": "a.go", "total_lines": 2},
			content: []Field{{"content", "package a\n\"x\"\t\n"}},
			want:    `{"ok":true,"data":{"path":"a.go","total_lines":2,"content":"package a\n\"x\"\t\n"}}`,
		},
		{
			name:    "raw details keep their order and numbers",
			details: json.RawMessage(`{ "b": 1.50, "a": [1, 2] , "content": 7 }`),
			content: []Field{{"content", "x"}},
			want:    `{"ok":true,"data":{"b":1.50,"a":[1,2],"content_details":7,"content":"x"}}`,
		},
		{
			name:    "no details",
			details: nil,
			content: []Field{{"content", "héllo \u2028 \x00"}},
			want:    `{"ok":true,"data":{"content":"héllo \u2028 \u0000"}}`,
		},
		{
			name:    "no content",
			details: struct{}{},
			want:    `{"ok":true,"data":{}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Envelope(tt.details, tt.content...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			var v struct {
				OK   bool           `json:"ok"`
				Data map[string]any `json:"data"`
			}
			if err := json.Unmarshal([]byte(got), &v); err != nil || !v.OK {
				t.Fatalf("not a valid envelope: %v", err)
			}
			for _, f := range tt.content {
				if v.Data[f.Name] != strings.ToValidUTF8(f.Value, "\uFFFD") {
					t.Errorf("content %s = %q, want %q", f.Name, v.Data[f.Name], f.Value)
				}
			}
			if strings.Contains(got, "\n") {
				t.Error("not compact: holds a newline")
			}
		})
	}
}

func TestEnvelopeNotAnObject(t *testing.T) {
	for _, d := range []any{42, "x", []int{1}} {
		if _, err := Envelope(d, Field{"content", "x"}); err == nil {
			t.Errorf("details %v: no error", d)
		}
	}
}

func TestErrorEnvelope(t *testing.T) {
	got := ErrorEnvelope(`read: "a.txt" is a directory; use ls <path>`)
	want := `{"ok":false,"error":"read: \"a.txt\" is a directory; use ls <path>"}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"": FormatText, "text": FormatText, "json": FormatJSON} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"JSON", "yaml", " text"} {
		if _, err := ParseFormat(in); err == nil {
			t.Errorf("ParseFormat(%q): no error", in)
		}
	}
}

func TestFormatRender(t *testing.T) {
	details := map[string]int{"exit_code": 1}
	if got := FormatText.Render("text\n[notice]", details, false, Field{"stdout", "text\n"}); got != "text\n[notice]" {
		t.Errorf("text: %q", got)
	}
	if got := FormatJSON.Render("text\n[notice]", details, false, Field{"stdout", "text\n"}); got != `{"ok":true,"data":{"exit_code":1,"stdout":"text\n"}}` {
		t.Errorf("json: %s", got)
	}
	if got := FormatJSON.Render("read: no such file a.txt", nil, true); got != `{"ok":false,"error":"read: no such file a.txt"}` {
		t.Errorf("json error: %s", got)
	}
	if got := FormatJSON.Render("x", 42, false); !strings.HasPrefix(got, `{"ok":false,"error":"spillway: cannot render`) {
		t.Errorf("unrenderable details: %s", got)
	}
}
