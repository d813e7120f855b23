package serve

// TourPage is one page of the guided tour.
type TourPage struct {
	ID        string  `json:"id"`
	Request   Request `json:"request"`
	Permalink string  `json:"permalink"`
}

// Tour is the guided tour.
var Tour []TourPage
