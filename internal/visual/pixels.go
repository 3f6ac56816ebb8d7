package visual

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// maxPixels bounds an image compared: a golden of a component is small,
// and a hostile PNG must not cost unbounded memory.
const maxPixels = 16 << 20

// Compare decodes two PNG images and counts the pixels that differ; two
// images of different sizes differ in every pixel of the larger.
func Compare(before, after []byte) (int, error) {
	a, err := decode(before)
	if err != nil {
		return 0, fmt.Errorf("before: %v", err)
	}
	b, err := decode(after)
	if err != nil {
		return 0, fmt.Errorf("after: %v", err)
	}
	ra, rb := a.Bounds(), b.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return max(ra.Dx()*ra.Dy(), rb.Dx()*rb.Dy()), nil
	}
	n := 0
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			ca := color.NRGBAModel.Convert(a.At(ra.Min.X+x, ra.Min.Y+y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(rb.Min.X+x, rb.Min.Y+y)).(color.NRGBA)
			if ca != cb && !(ca.A == 0 && cb.A == 0) {
				n++
			}
		}
	}
	return n, nil
}

func decode(data []byte) (image.Image, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if cfg.Width*cfg.Height > maxPixels {
		return nil, fmt.Errorf("%dx%d pixels: larger than a golden image may be", cfg.Width, cfg.Height)
	}
	return png.Decode(bytes.NewReader(data))
}
