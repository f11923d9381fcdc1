import numpy as np
import pandas as pd

from cvrepro.reporting import beside, save_table


def test_tables_are_written_in_three_formats_with_fixed_decimals(tmp_path):
    table = pd.DataFrame({"data_set": ["a_b", "c"], "auroc": [0.123456, np.nan], "n": [3, 4]})
    paths = save_table(table, tmp_path, "t", digits=3, caption="cap")
    assert [p.suffix for p in paths] == [".csv", ".md", ".tex"]
    pd.testing.assert_frame_equal(pd.read_csv(paths[0]), table)
    md = paths[1].read_text()
    assert "0.123" in md and "0.1235" not in md and "nan" not in md
    tex = paths[2].read_text()
    assert r"a\_b" in tex and r"data\_set" in tex and "cap" in tex


def test_beside_pairs_our_numbers_with_the_published_ones():
    ours = pd.DataFrame({"d": ["x", "y"], "v": [0.5, 0.7]})
    paper = pd.DataFrame({"d": ["y", "z"], "v": [0.6, 0.9]})
    out = beside(ours, paper, "d").set_index("d")
    assert out.loc["y", "v diff"] == 0.7 - 0.6
    assert np.isnan(out.loc["x", "v paper"]) and np.isnan(out.loc["z", "v ours"])


def test_panel_grid_leaves_no_empty_slot_and_centres_a_short_last_row():
    import matplotlib

    matplotlib.use("Agg")
    from cvrepro.reporting import hide_empty_panels, legend_outside, panel_grid

    fig, axes = panel_grid(3, 2)
    assert len(fig.axes) == len(axes) == 3
    for ax, name in zip(axes, ["C4.5", "HDDT", "C4.5"]):
        ax.plot([0, 1], [0, 1], label=name)
    assert hide_empty_panels(fig) == 0
    fig.canvas.draw()
    left, right = axes[0].get_position(), axes[1].get_position()
    centre = axes[2].get_position()
    assert abs((centre.x0 + centre.x1) / 2 - (left.x0 + right.x1) / 2) < 0.02      # the short row is centred
    legend = legend_outside(fig)
    assert [t.get_text() for t in legend.get_texts()] == ["C4.5", "HDDT"]          # each learner once
    assert centre.y1 < left.y0                                                      # below the first row
