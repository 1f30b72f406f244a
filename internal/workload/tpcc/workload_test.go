package tpcc

import (
	"errors"
	"strings"
	"testing"

	"benchpress/internal/workload"
)

func TestParseMix(t *testing.T) {
	tests := []struct {
		in      string
		want    [NumOps]int
		wantErr string
	}{
		{in: "45,43,4,4,4", want: DefaultMix},
		{in: " 10, 10 ,1,1,1 ", want: [NumOps]int{10, 10, 1, 1, 1}},
		{in: "new_order=45,payment=43,order_status=4,delivery=4,stock_level=4", want: DefaultMix},
		{in: "payment=1,new-order=2", want: [NumOps]int{2, 1, 0, 0, 0}},
		{in: "NewOrder=3", want: [NumOps]int{3, 0, 0, 0, 0}},
		{in: "", wantErr: "empty mix"},
		{in: "45,43,4,4", wantErr: "want 5 comma-separated weights"},
		{in: "45,43,4,4,x", wantErr: `weight "x" of stock_level`},
		{in: "45,43,4,4,-1", wantErr: `weight "-1"`},
		{in: "0,0,0,0,0", wantErr: "sum to more than 0"},
		{in: "new_order=45,bogus=3", wantErr: `unknown transaction "bogus"`},
		{in: "new_order=45,new_order=3", wantErr: "given twice"},
		{in: "new_order=45,payment", wantErr: "is not name=weight"},
		{in: "payment=1.5", wantErr: `weight "1.5"`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseMix(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestMixWarnings(t *testing.T) {
	c := Config{Mix: DefaultMix}
	if w := c.MixWarnings(); len(w) != 0 {
		t.Errorf("default mix warned: %v", w)
	}
	c.Mix = [NumOps]int{10, 10, 1, 1, 1} // tpcc-mysql: payment 43.48 %, others 4.35 %
	if w := c.MixWarnings(); len(w) != 0 {
		t.Errorf("10/10/1/1/1 warned: %v", w)
	}
	c.Mix = [NumOps]int{100, 0, 0, 0, 0}
	if w := c.MixWarnings(); len(w) != 4 {
		t.Errorf("new-order only: %d warnings, want 4: %v", len(w), w)
	}
}

func testNamesStd() Names { n, _ := NamesFor("standard"); return n }

func TestNewValidation(t *testing.T) {
	meta := Meta{Scheme: "standard", Warehouses: 2, CLoadLast: 157, CID: 259, COLIID: 7911}
	tests := []struct {
		name   string
		cfg    Config
		meta   Meta
		errIs  error
		errHas []string
	}{
		{name: "ok", cfg: Config{Mix: DefaultMix, Names: testNamesStd()}, meta: meta},
		{name: "too many warehouses", cfg: Config{Warehouses: 3, Mix: DefaultMix, Names: testNamesStd()}, meta: meta, errIs: workload.ErrScaleMismatch},
		{name: "scheme mismatch", cfg: Config{Mix: DefaultMix, Names: func() Names { n, _ := NamesFor("bmsql"); return n }()}, meta: meta, errIs: workload.ErrSchemeMismatch},
		{name: "all problems at once", cfg: Config{Warehouses: -1, Mix: [NumOps]int{-1, 0, 0, 0, 0}}, meta: Meta{},
			errHas: []string{"negative", "mix weight of new_order", "sum to more than 0", "table names", "no warehouses"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := New(tc.cfg, tc.meta)
			if tc.errIs == nil && tc.errHas == nil {
				if err != nil {
					t.Fatal(err)
				}
				if w.Warehouses() != 2 || !LegalCDelta(157, w.CRun()) {
					t.Fatalf("warehouses %d, c-run %d", w.Warehouses(), w.CRun())
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			if tc.errIs != nil && !errors.Is(err, tc.errIs) {
				t.Errorf("err = %v, want %v", err, tc.errIs)
			}
			for _, s := range tc.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("err %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestBind(t *testing.T) {
	tests := []struct {
		n, w int
		want [][2]int // (warehouse, district) per terminal id
	}{
		{1, 1, [][2]int{{1, 1}}},
		{3, 1, [][2]int{{1, 1}, {1, 2}, {1, 3}}},
		{4, 2, [][2]int{{1, 1}, {2, 1}, {1, 2}, {2, 2}}},
		{5, 4, [][2]int{{1, 1}, {2, 1}, {3, 1}, {4, 1}, {1, 2}}},
		{12, 1, [][2]int{{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}, {1, 8}, {1, 9}, {1, 10}, {1, 1}, {1, 2}}},
	}
	for _, tc := range tests {
		for id := 0; id < tc.n; id++ {
			w, d := Bind(id, tc.w)
			if [2]int{w, d} != tc.want[id] {
				t.Errorf("N=%d W=%d terminal %d: (%d,%d), want %v", tc.n, tc.w, id, w, d, tc.want[id])
			}
		}
	}
	// 10×W terminals: every (warehouse, district) pair exactly once.
	const W = 7
	seen := map[[2]int]bool{}
	for id := 0; id < 10*W; id++ {
		w, d := Bind(id, W)
		if seen[[2]int{w, d}] {
			t.Fatalf("pair (%d,%d) bound twice", w, d)
		}
		seen[[2]int{w, d}] = true
	}
}

func TestCrowdNote(t *testing.T) {
	for _, tc := range []struct {
		terminals, warehouses int
		want                  string // substring; "" = no note
	}{
		{10, 1, ""},
		{100, 10, ""},
		{11, 1, "11 terminals on 1 warehouse(s) is 11 per warehouse"},
		{512, 2, "512 terminals on 2 warehouse(s) is 256 per warehouse"},
		{5, 0, ""},
	} {
		got := crowdNote(tc.terminals, tc.warehouses)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("crowdNote(%d, %d) = %q, want %q", tc.terminals, tc.warehouses, got, tc.want)
		}
	}
}
