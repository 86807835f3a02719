// Command helm-render renders a chart as a sequence of Helm releases — `helm install`, then one `helm upgrade`
// per further values file — with Helm's own install and upgrade actions, against an in-memory release store
// and a Kubernetes client that applies nothing. `helm template` always renders revision 1 as an install;
// this renders revision 2, 3 … as upgrades (.Release.Revision, .Release.IsUpgrade), which is what the chart's
// upgrade test compares (test-e2e/helm-chart.test.ts). Built and run by scripts/helm --render.
//
//	helm-render <chart dir> <namespace> <release name> <values file>…
//
// prints a JSON array, one entry per release: {"revision", "manifest", "hooks": [{"name", "kind", "events", "manifest"}]}.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
)

type hook struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Events   []string `json:"events"`
	Manifest string   `json:"manifest"`
}

type rendered struct {
	Revision int    `json:"revision"`
	Manifest string `json:"manifest"`
	Hooks    []hook `json:"hooks"`
}

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: helm-render <chart dir> <namespace> <release name> <values file>…")
		os.Exit(2)
	}
	chartDir, namespace, name, valueFiles := os.Args[1], os.Args[2], os.Args[3], os.Args[4:]
	chart, err := loader.Load(chartDir)
	fail(err)
	// The Kubernetes release whose API schemas the rendered documents are checked against (kubernetes-models 5.1).
	capabilities := *chartutil.DefaultCapabilities
	capabilities.KubeVersion = chartutil.KubeVersion{Version: "v1.34.0", Major: "1", Minor: "34"}
	config := &action.Configuration{
		Releases:     storage.Init(driver.NewMemory()),
		KubeClient:   &kubefake.PrintingKubeClient{Out: io.Discard},
		Capabilities: &capabilities,
		Log:          func(string, ...interface{}) {},
	}
	releases := []rendered{}
	for i, file := range valueFiles {
		values, err := chartutil.ReadValuesFile(file)
		fail(err)
		var rel *release.Release
		if i == 0 {
			install := action.NewInstall(config)
			install.ReleaseName = name
			install.Namespace = namespace
			rel, err = install.Run(chart, values.AsMap())
		} else {
			upgrade := action.NewUpgrade(config)
			upgrade.Namespace = namespace
			// The values given, on the chart's defaults: never the previous release's (helm upgrade without --reuse-values).
			upgrade.ResetValues = true
			rel, err = upgrade.Run(name, chart, values.AsMap())
		}
		fail(err)
		out := rendered{Revision: rel.Version, Manifest: rel.Manifest, Hooks: []hook{}}
		for _, h := range rel.Hooks {
			events := []string{}
			for _, event := range h.Events {
				events = append(events, string(event))
			}
			out.Hooks = append(out.Hooks, hook{Name: h.Name, Kind: h.Kind, Events: events, Manifest: h.Manifest})
		}
		releases = append(releases, out)
	}
	fail(json.NewEncoder(os.Stdout).Encode(releases))
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "helm-render:", err)
		os.Exit(1)
	}
}
