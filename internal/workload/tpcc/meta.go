package tpcc

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"benchpress/internal/randgen"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// Meta is what prepare records in the metadata table (Names.Meta) and what a
// run needs to know about the loaded data set.
type Meta struct {
	Scheme     string
	Warehouses int
	// NURand C constants used at load (clause 2.1.6), drawn from the seed in
	// [0,255], [0,1023] and [0,8191]. The run must pick C_run for C_LAST with
	// |C_run - CLoadLast| in [65,119] and not 96 or 112 (clause 2.1.6.1).
	CLoadLast, CID, COLIID int
	Seed                   uint64
	SchemaVersion          int
	LoadedAt               time.Time // the load timestamp (c_since, o_entry_d, ...)
}

// Metadata keys.
const (
	keyScheme        = "scheme"
	keyWarehouses    = "warehouses"
	keyCLast         = "c_load_c_last"
	keyCID           = "c_c_id"
	keyCOLIID        = "c_ol_i_id"
	keySeed          = "seed"
	keySchemaVersion = "schema_version"
	keyLoadedAt      = "loaded_at"
	keyStatus        = "status" // "loading" until indexes (and FKs) exist, then "complete"
	statusComplete   = "complete"
	statusLoading    = "loading"
	unitKeyPrefix    = "unit:" // unit:<table>:<wlo>-<whi>[:<sub>] = done
)

// NewMeta derives the load constants of a data set from its seed: the three
// NURand C values are drawn in their clause 2.1.6 ranges (inclusive).
func NewMeta(scheme string, warehouses int, seed uint64, loadedAt time.Time) Meta {
	r := randgen.New(seed, 0xC0C0)
	return Meta{
		Scheme: scheme, Warehouses: warehouses, Seed: seed, SchemaVersion: SchemaVersion,
		CLoadLast: r.Range(0, 255), CID: r.Range(0, 1023), COLIID: r.Range(0, 8191),
		LoadedAt: loadedAt.UTC().Truncate(time.Second),
	}
}

// GenParams returns the generation parameters of the data set.
func (m Meta) GenParams() GenParams {
	return GenParams{Seed: m.Seed, CLoadLast: m.CLoadLast, LoadTime: m.LoadedAt.Unix()}
}

func (m Meta) pairs() [][2]string {
	return [][2]string{
		{keyScheme, m.Scheme},
		{keyWarehouses, strconv.Itoa(m.Warehouses)},
		{keyCLast, strconv.Itoa(m.CLoadLast)},
		{keyCID, strconv.Itoa(m.CID)},
		{keyCOLIID, strconv.Itoa(m.COLIID)},
		{keySeed, strconv.FormatUint(m.Seed, 10)},
		{keySchemaVersion, strconv.Itoa(m.SchemaVersion)},
		{keyLoadedAt, m.LoadedAt.Format(time.RFC3339)},
	}
}

// setMeta upserts one key (delete + insert works on every dialect).
func setMeta(ctx context.Context, conn target.Conn, n Names, k, v string) error {
	if _, err := conn.Exec(ctx, "DELETE FROM "+n.Meta+" WHERE meta_key = ?", k); err != nil {
		return fmt.Errorf("metadata %s: %w", k, err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO "+n.Meta+" (meta_key, meta_value) VALUES (?, ?)", k, v); err != nil {
		return fmt.Errorf("metadata %s: %w", k, err)
	}
	return nil
}

// writeMeta records m in one transaction.
func writeMeta(ctx context.Context, conn target.Conn, n Names, m Meta) error {
	if err := conn.Begin(ctx, true); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	for _, kv := range append(m.pairs(), [2]string{keyStatus, statusLoading}) {
		if err := setMeta(ctx, conn, n, kv[0], kv[1]); err != nil {
			_ = conn.Rollback(ctx)
			return err
		}
	}
	if err := conn.Commit(ctx); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	return nil
}

// setMetaTx upserts kvs in one transaction.
func setMetaTx(ctx context.Context, conn target.Conn, n Names, kvs [][2]string) error {
	if err := conn.Begin(ctx, true); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	for _, kv := range kvs {
		if err := setMeta(ctx, conn, n, kv[0], kv[1]); err != nil {
			_ = conn.Rollback(ctx)
			return err
		}
	}
	if err := conn.Commit(ctx); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	return nil
}

// readMetaMap reads every key of the metadata table.
func readMetaMap(ctx context.Context, conn target.Conn, n Names) (map[string]string, error) {
	rows, err := conn.Query(ctx, "SELECT meta_key, meta_value FROM "+n.Meta)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", n.Meta, err)
	}
	defer rows.Close()
	kv := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("read %s: %w", n.Meta, err)
		}
		kv[k] = v
	}
	return kv, rows.Err()
}

const prepareHint = "run `benchpress tpcc prepare` first"

// ReadMeta reads the metadata of the data set loaded under scheme n. A
// missing metadata table wraps workload.ErrNotPrepared, or
// workload.ErrSchemeMismatch when the tables of another scheme are there; a
// load that did not finish wraps ErrNotPrepared; metadata written by a load
// under another scheme (the metadata table is shared) wraps
// ErrSchemeMismatch.
func ReadMeta(ctx context.Context, conn target.Conn, n Names) (Meta, error) {
	have, err := listTables(ctx, conn)
	if err != nil {
		return Meta{}, err
	}
	if !have[strings.ToLower(n.Meta)] {
		if other := otherScheme(have, n); other != "" {
			return Meta{}, fmt.Errorf("%w: no %s tables (%s) but tables of scheme %q exist; use --names %s",
				workload.ErrSchemeMismatch, n.Scheme, n.Orders, other, other)
		}
		return Meta{}, fmt.Errorf("%w: metadata table %s not found; %s", workload.ErrNotPrepared, n.Meta, prepareHint)
	}
	kv, err := readMetaMap(ctx, conn, n)
	if err != nil {
		return Meta{}, err
	}
	if kv[keyStatus] != statusComplete {
		if w, miss := unloadedOf(kv, 0); kv[keyStatus] == statusLoading && miss != "" {
			return Meta{}, fmt.Errorf("%w: the data set of %d warehouses is not complete: %s not loaded (a range still loading, or a load that failed: once no other load is running, load them with prepare --warehouse-range or --resume), or %s with --drop",
				workload.ErrNotPrepared, w, miss, prepareHint)
		}
		return Meta{}, fmt.Errorf("%w: the last load did not finish (status %q); %s with --drop",
			workload.ErrNotPrepared, kv[keyStatus], prepareHint)
	}
	m, err := parseMeta(kv)
	if err == nil && m.Scheme != n.Scheme {
		err = fmt.Errorf("%w: --names %s but the data set was loaded with --names %s",
			workload.ErrSchemeMismatch, n.Scheme, m.Scheme)
	}
	return m, err
}

func parseMeta(kv map[string]string) (Meta, error) {
	m := Meta{Scheme: kv[keyScheme]}
	var errs []string
	num := func(k string, dst *int) {
		v, err := strconv.Atoi(kv[k])
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s=%q", k, kv[k]))
		}
		*dst = v
	}
	num(keyWarehouses, &m.Warehouses)
	num(keyCLast, &m.CLoadLast)
	num(keyCID, &m.CID)
	num(keyCOLIID, &m.COLIID)
	num(keySchemaVersion, &m.SchemaVersion)
	seed, err := strconv.ParseUint(kv[keySeed], 10, 64)
	if err != nil {
		errs = append(errs, fmt.Sprintf("%s=%q", keySeed, kv[keySeed]))
	}
	m.Seed = seed
	if t, err := time.Parse(time.RFC3339, kv[keyLoadedAt]); err == nil {
		m.LoadedAt = t
	} else {
		// The zero time would become C_SINCE and O_ENTRY_D of the rows a
		// resumed or ranged load adds.
		errs = append(errs, fmt.Sprintf("%s=%q", keyLoadedAt, kv[keyLoadedAt]))
	}
	if len(errs) > 0 {
		return m, fmt.Errorf("%w: bad metadata values %s; %s with --drop",
			workload.ErrNotPrepared, strings.Join(errs, ", "), prepareHint)
	}
	return m, nil
}

// otherScheme names a scheme, other than n's, whose ORDER and NEW-ORDER
// tables both exist.
func otherScheme(have map[string]bool, n Names) string {
	for _, s := range SchemeNames() {
		o, _ := NamesFor(s)
		if s == n.Scheme || (o.Orders == n.Orders && o.NewOrder == n.NewOrder) {
			continue
		}
		if have[strings.ToLower(o.Orders)] && have[strings.ToLower(o.NewOrder)] {
			return s
		}
	}
	return ""
}

// Validate reports whether a run of warehouses warehouses under scheme can
// use the data set: the scheme must match (workload.ErrSchemeMismatch) and
// warehouses must be 1..m.Warehouses (workload.ErrScaleMismatch); a run may
// use fewer warehouses than were loaded, never more.
func (m Meta) Validate(warehouses int, scheme string) error {
	if scheme != "" && m.Scheme != scheme {
		return fmt.Errorf("%w: --names %s but the data set was loaded with scheme %s",
			workload.ErrSchemeMismatch, scheme, m.Scheme)
	}
	if warehouses < 1 || warehouses > m.Warehouses {
		return fmt.Errorf("%w: --warehouses %d but the data set has %d warehouses",
			workload.ErrScaleMismatch, warehouses, m.Warehouses)
	}
	if m.SchemaVersion != SchemaVersion {
		return fmt.Errorf("%w: data set has schema version %d, this benchpress expects %d; reload with prepare --drop",
			workload.ErrNotPrepared, m.SchemaVersion, SchemaVersion)
	}
	return nil
}
