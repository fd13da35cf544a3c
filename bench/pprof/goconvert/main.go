// Command goconvert is the Go side of the whole-process comparison (whole_process.sh): one
// profile.Parse + profile.Write of a file, as `proflow convert IN OUT` does, so both sides pay
// process start-up, reading, page faults and freeing.
//
//	goconvert IN OUT
//	goconvert -gen-alloc N OUT   writes a Go allocation profile of N samples with 4 sample types
//	                             (alloc_objects, alloc_space, inuse_objects, inuse_space) and a
//	                             numeric "bytes" label, as runtime/pprof writes heap profiles
//
// Build: go build -o goconvert ./goconvert (in bench/pprof: its go.mod pins github.com/google/pprof)
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"

	"github.com/google/pprof/profile"
)

func convert(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return err
	}
	return write(p, out)
}

func write(p *profile.Profile, out string) error {
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := p.Write(w); err != nil {
		return err
	}
	return w.Close()
}

// A heap-like profile: stacks 10-30 deep, one of 30000 call-site tails (4-24 frames of 6000
// functions in 40 packages) under one of 200 root paths (6 frames), so stacks recur with other
// sizes as in a real heap profile; values and the "bytes" label as runtime/pprof writes them.
func genAlloc(samples int, out string) error {
	rng := rand.New(rand.NewSource(1))
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType:        &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:            524288,
		DefaultSampleType: "alloc_space",
		TimeNanos:         1_700_000_000_000_000_000,
	}
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x2000000, File: "/app/server", HasFunctions: true,
		HasFilenames: true, HasLineNumbers: true}
	p.Mapping = []*profile.Mapping{m}
	const functions = 6000
	for i := 0; i < functions; i++ {
		pkg := fmt.Sprintf("example.com/service/pkg%02d", i%40)
		fn := &profile.Function{ID: uint64(i + 1), Name: fmt.Sprintf("%s.(*Handler%d).method%d", pkg, i%97, i),
			SystemName: fmt.Sprintf("%s.(*Handler%d).method%d", pkg, i%97, i), Filename: fmt.Sprintf("/src/%s/file%d.go", pkg, i%13),
			StartLine: int64(10 + i%500)}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Mapping: m, Address: 0x400000 + uint64(i)*64,
			Line: []profile.Line{{Function: fn, Line: fn.StartLine + int64(rng.Intn(40))}}})
	}
	roots := make([][]*profile.Location, 200)
	for r := range roots {
		for d := 0; d < 6; d++ {
			roots[r] = append(roots[r], p.Location[rng.Intn(functions)])
		}
	}
	tails := make([][]*profile.Location, 30000)
	for t := range tails {
		for d, n := 0, 4+rng.Intn(21); d < n; d++ {
			tails[t] = append(tails[t], p.Location[rng.Intn(functions)])
		}
	}
	for s := 0; s < samples; s++ {
		tail := tails[rng.Intn(len(tails))]
		locs := make([]*profile.Location, 0, len(tail)+6)
		locs = append(locs, tail...)
		locs = append(locs, roots[rng.Intn(len(roots))]...)
		size := int64(16 << uint(rng.Intn(10)))
		objects := int64(1 + rng.Intn(50))
		inuse := objects / int64(1+rng.Intn(4))
		p.Sample = append(p.Sample, &profile.Sample{Location: locs,
			Value:    []int64{objects, objects * size, inuse, inuse * size},
			NumLabel: map[string][]int64{"bytes": {size}}})
	}
	return write(p, out)
}

func main() {
	gen := flag.Int("gen-alloc", 0, "write an allocation profile of this many samples to the one argument")
	flag.Parse()
	var err error
	if *gen > 0 && flag.NArg() == 1 {
		err = genAlloc(*gen, flag.Arg(0))
	} else if flag.NArg() == 2 {
		err = convert(flag.Arg(0), flag.Arg(1))
	} else {
		fmt.Fprintln(os.Stderr, "usage: goconvert IN OUT | goconvert -gen-alloc N OUT")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
