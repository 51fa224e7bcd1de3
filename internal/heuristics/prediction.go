package heuristics

import "sort"

// prediction.go: SelectionHeuristic::ModeA and ModeB, the prediction-ranking policies. They
// ask the host for predictions of every candidate in the effective ranking metric (the same
// get_prediction service a plugin reaches through the host callback table) and order by
// them: ModeA by engine-level predictions, ModeB by configuration-level predictions, falling
// back to the engine-level one for engines without a usable configuration-level prediction.
// Higher is better for "tflops", lower for "time"; ties and engines without a usable
// prediction keep their input order, the latter after every predicted engine. A policy
// declines when no candidate has a usable prediction. ModeB hands out the exact
// configuration of each configuration-level prediction through GetEngineConfig. They are
// never part of the default order: ask for them by name.

func rankModeA(c *rankCall) ([]int64, map[int64][]byte, bool, string) {
	return rankByPrediction(c, false)
}

func rankModeB(c *rankCall) ([]int64, map[int64][]byte, bool, string) {
	return rankByPrediction(c, true)
}

func rankByPrediction(c *rankCall, configurations bool) ([]int64, map[int64][]byte, bool, string) {
	if len(c.candidates) == 0 {
		return nil, nil, false, "no candidate engines"
	}
	type scored struct {
		id    int64
		value float64
		ok    bool
	}
	metric := c.host.metric
	list := make([]scored, len(c.candidates))
	var configs map[int64][]byte
	usable := 0
	for i, id := range c.candidates {
		list[i].id = id
		if configurations {
			if p, ok := c.predict(id, PredictionConfiguration, metric); ok {
				list[i].value, list[i].ok = p.value, true
				if configs == nil {
					configs = map[int64][]byte{}
				}
				configs[id] = p.config.encode(metric)
			}
		}
		if !list[i].ok {
			if p, ok := c.predict(id, PredictionEngine, metric); ok {
				list[i].value, list[i].ok = p.value, true
			}
		}
		if list[i].ok {
			usable++
		}
	}
	if usable == 0 {
		return nil, nil, false, "no candidate has a usable " + metric + " prediction"
	}
	higher := higherIsBetter(metric)
	sort.SliceStable(list, func(a, b int) bool {
		x, y := list[a], list[b]
		if x.ok != y.ok {
			return x.ok
		}
		if !x.ok || x.value == y.value {
			return false
		}
		if higher {
			return x.value > y.value
		}
		return x.value < y.value
	})
	order := make([]int64, len(list))
	for i := range list {
		order[i] = list[i].id
	}
	return order, configs, true, ""
}

// predict asks the host for one prediction and keeps it only when usable.
func (c *rankCall) predict(id int64, kind int, metric string) (prediction, bool) {
	blob, st := c.host.prediction(id, kind)
	if st != pluginSuccess {
		return prediction{}, false
	}
	p, err := decodePrediction(blob)
	if err != nil || !p.usable(id, uint8(kind), metric) {
		return prediction{}, false
	}
	return p, true
}
