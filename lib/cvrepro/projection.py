"""Distance-preserving 2-D projection along a minimal-cost spanning tree (MCST).

Japkowicz, Sanghi & Tischer (ECML 2008) draw classifiers as points: each is
the vector of its confusion matrices (over one or several domains), the ideal
classifier is the vector with every example on the diagonal, and the picture
is Yang's (2004) MCST distance-preserving projection ("Distance-preserving
projection of high-dimensional data for nonlinear dimensionality reduction",
IEEE TPAMI 26(9)). Yang places points one at a time along a minimum spanning
tree, each by triangulation: its distances to two points already placed are
kept exactly, a third decides between the two mirror positions.

:func:`mcst_projection` does that with the tree rooted at a chosen point (the
ideal classifier) and, as the two kept distances, the point's tree edge to its
parent and its distance to the root. So every edge of the spanning tree and
every point's distance to the root are exact in the drawing: the distance to
the ideal classifier, the framework's measure, can be read off the picture.
The mirror position is chosen to fit the distances to all points placed so
far best (least squares). Distances are any metric (``"euclidean"``, L2, or
``"cityblock"``, L1, as in the paper); the triangle inequality guarantees the
two circles meet.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse.csgraph import breadth_first_order, minimum_spanning_tree
from scipy.spatial.distance import pdist, squareform

__all__ = ["Projection", "mcst_projection", "stress"]


@dataclass(frozen=True)
class Projection:
    """A 2-D layout: ``coords`` (n x 2), ``parent`` (tree parent of each point, -1 at the
    root), the original ``distances`` (n x n), ``names`` and the ``root`` index."""

    coords: np.ndarray
    parent: np.ndarray
    distances: np.ndarray
    names: list
    root: int

    def table(self) -> pd.DataFrame:
        """One row per point: name, x, y, distance to the root, tree parent, rank by that distance."""
        d = self.distances[self.root]
        out = pd.DataFrame({"name": self.names, "x": self.coords[:, 0], "y": self.coords[:, 1],
                            "distance_to_root": d,
                            "parent": [self.names[p] if p >= 0 else "" for p in self.parent]})
        out["rank"] = out["distance_to_root"].rank(method="min").astype(int)
        return out

    def stress(self) -> float:
        """Kruskal's stress-1 of the layout against the original distances."""
        return stress(self.distances, self.coords)


def stress(distances: np.ndarray, coords: np.ndarray) -> float:
    """Kruskal's stress-1: sqrt(sum (d_2D - d)^2 / sum d^2) over pairs."""
    d = squareform(np.asarray(distances, dtype=float), checks=False)
    e = pdist(np.asarray(coords, dtype=float))
    return float(np.sqrt(np.sum((e - d) ** 2) / np.sum(d ** 2))) if np.sum(d ** 2) > 0 else 0.0


def mcst_projection(points, names=None, root: int = 0, metric: str = "euclidean") -> Projection:
    """Project ``points`` (n x d, n >= 2) to 2-D along their minimal-cost spanning tree.

    ``metric`` is a scipy ``pdist`` metric (``"euclidean"``, ``"cityblock"``)
    or ``"precomputed"`` (``points`` is then a symmetric distance matrix).
    The tree is scipy's minimum spanning tree of the complete distance graph
    (a zero distance is given a tiny positive weight so duplicates stay
    connected); points are placed in breadth-first order from ``root``.
    """
    D = _distances(points, metric)
    n = len(D)
    if not 0 <= root < n:
        raise ValueError(f"root must index one of the {n} points, got {root}")
    names = [str(i) for i in range(n)] if names is None else [str(v) for v in names]
    if len(names) != n:
        raise ValueError(f"{len(names)} names for {n} points")
    weights = np.where(D > 0, D, np.finfo(float).tiny)
    np.fill_diagonal(weights, 0.0)
    tree = minimum_spanning_tree(weights)
    order, pred = breadth_first_order(tree + tree.T, root, directed=False)
    parent = np.where(pred < 0, -1, pred).astype(int)
    parent[root] = -1
    X = np.zeros((n, 2))
    placed = [root]
    for v in order[1:]:
        X[v] = _place(v, parent[v], root, D, X, placed)
        placed.append(v)
    return Projection(X, parent, D, names, root)


def _distances(points, metric: str) -> np.ndarray:
    P = np.asarray(points, dtype=float)
    if metric == "precomputed":
        if P.ndim != 2 or P.shape[0] != P.shape[1] or not np.allclose(P, P.T) or (P < 0).any():
            raise ValueError("a precomputed distance matrix must be square, symmetric and non-negative")
        D = P.copy()
    else:
        if P.ndim != 2 or len(P) < 2:
            raise ValueError(f"points must be an n x d array with n >= 2, got shape {P.shape}")
        D = squareform(pdist(P, metric=metric))
    if not np.isfinite(D).all():
        raise ValueError("distances must be finite")
    return D


def _circle_intersections(c1, r1, c2, r2):
    """The (one or two) points at distance r1 from c1 and r2 from c2 (tangent when the
    circles just touch; rounding that pushes them apart is clipped to tangency)."""
    d = float(np.hypot(*(c2 - c1)))
    if d == 0.0:
        return None
    a = (r1 ** 2 - r2 ** 2 + d ** 2) / (2 * d)
    h2 = r1 ** 2 - a ** 2
    h = np.sqrt(max(h2, 0.0))
    u = (c2 - c1) / d
    base = c1 + a * u
    normal = np.array([-u[1], u[0]])
    return [base + h * normal, base - h * normal]


def _fit_error(x, v, D, X, placed) -> float:
    others = np.array(placed)
    return float(np.sum((np.hypot(*(X[others] - x).T) - D[v, others]) ** 2))


def _place(v, p, root, D, X, placed):
    """Position of point ``v``: exact distances to its parent ``p`` and to ``root``."""
    if p == root:
        anchors = [q for q in placed if q != root and np.hypot(*(X[q] - X[root])) > 0]
        if not anchors:                                   # the first point off the root
            return X[root] + np.array([D[v, root], 0.0])
        q = min(anchors, key=lambda a: D[v, a])           # keep the distance to the nearest placed point too
        candidates = _circle_intersections(X[root], D[v, root], X[q], D[v, q])
    else:
        candidates = _circle_intersections(X[p], D[v, p], X[root], D[v, root])
    if candidates is None:                                # parent and root coincide: any point of the circle
        angles = np.linspace(0, 2 * np.pi, 360, endpoint=False)
        candidates = [X[p] + D[v, p] * np.array([np.cos(t), np.sin(t)]) for t in angles]
    return min(candidates, key=lambda x: _fit_error(x, v, D, X, placed))
