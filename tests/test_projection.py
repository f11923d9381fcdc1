"""The MCST distance-preserving projection (cvrepro.projection): what it keeps exactly, and a planar check."""
import numpy as np
import pytest
from scipy.sparse.csgraph import minimum_spanning_tree
from scipy.spatial.distance import pdist, squareform

from cvrepro.projection import mcst_projection, stress


@pytest.mark.parametrize("metric", ["euclidean", "cityblock"])
def test_tree_edges_and_distances_to_the_root_are_exact(metric):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(12, 7)) * 10
    proj = mcst_projection(X, root=3, metric=metric)
    D = squareform(pdist(X, metric))
    E = squareform(pdist(proj.coords))
    assert E[3] == pytest.approx(D[3], rel=1e-9, abs=1e-9)
    for child, parent in enumerate(proj.parent):
        if parent >= 0:
            assert E[child, parent] == pytest.approx(D[child, parent], rel=1e-9)
    tree_weight = minimum_spanning_tree(D).sum()
    assert sum(D[c, p] for c, p in enumerate(proj.parent) if p >= 0) == pytest.approx(tree_weight)
    t = proj.table()
    assert t.loc[3, "distance_to_root"] == 0 and t.loc[3, "rank"] == 1 and t.loc[3, "parent"] == ""


def test_points_in_a_plane_are_recovered_up_to_isometry():
    rng = np.random.default_rng(5)
    P = rng.normal(size=(15, 2))
    X = np.hstack([P, np.zeros((15, 3))]) @ np.linalg.qr(rng.normal(size=(5, 5)))[0]   # a plane in 5-D
    proj = mcst_projection(X)
    assert proj.stress() == pytest.approx(0.0, abs=1e-9)
    assert stress(squareform(pdist(X)), P) == pytest.approx(0.0, abs=1e-12)


def test_duplicates_and_precomputed_distances():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    proj = mcst_projection(squareform(pdist(X)), names=list("abcd"), metric="precomputed")
    assert np.isfinite(proj.coords).all() and proj.table().name.tolist() == list("abcd")
    with pytest.raises(ValueError, match="symmetric"):
        mcst_projection(np.array([[0.0, 1.0], [2.0, 0.0]]), metric="precomputed")
    with pytest.raises(ValueError, match="root must index"):
        mcst_projection(X, root=9)
    with pytest.raises(ValueError, match="names"):
        mcst_projection(X, names=["a"])
