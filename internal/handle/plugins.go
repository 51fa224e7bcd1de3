package handle

// plugins is what a handle holds from the plugin host. It is filled in by the engine and
// heuristic plugin host packages.
type plugins struct{}

func (p *plugins) open() ([]error, error)      { return nil, nil }
func (p *plugins) close()                      {}
func (p *plugins) setStream(s uintptr) error   { return nil }
