"""scikit-learn's estimator checks for every estimator class we write, and the registry."""
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from cvrepro.learners import LEARNERS, list_learners, make_learner
from cvrepro.learners.bagging import Bagging, RandomForest
from cvrepro.learners.boosting import AdaBoostM1, DecisionStump
from cvrepro.learners.furia import FURIA
from cvrepro.learners.jrip import JRip
from cvrepro.learners.keel_knn import KeelKNN
from cvrepro.learners.keel_lda import KeelLDA
from cvrepro.learners.keel_part import KeelPART
from cvrepro.learners.keel_ripper import KeelRipper
from cvrepro.learners.keel_svm import KeelSVM
from cvrepro.learners.knn import IBk
from cvrepro.learners.logistic import WekaLogistic
from cvrepro.learners.mlp import WekaMLP
from cvrepro.learners.naive_bayes import WekaNaiveBayes
from cvrepro.learners.oner import OneR
from cvrepro.learners.part import PART
from cvrepro.learners.pdfc import PDFC
from cvrepro.learners.random_tree import RandomTree
from cvrepro.learners.reptree import REPTree
from cvrepro.learners.smo import SMO
from cvrepro.learners.tree import C45, HDDT
from cvrepro.learners.wrapped import Wrapped

ESTIMATORS = [
    C45(), C45(laplace=True, unpruned=True), HDDT(), PART(),
    WekaNaiveBayes(kernel=True), WekaNaiveBayes(kernel=False),
    IBk(k=3), SMO(), WekaMLP(hidden_layers="3", epochs=100),
    DecisionStump(), AdaBoostM1(n_iterations=5),
    Wrapped(LinearDiscriminantAnalysis(solver="lsqr")),
    Wrapped(SVC(), normalize=True),
    WekaLogistic(), REPTree(), RandomTree(), Bagging(n_iterations=3), RandomForest(n_trees=3),
    WekaMLP(hidden_layers="0", epochs=50), JRip(), OneR(),
    KeelKNN(k=3), KeelLDA(), KeelSVM(), PDFC(), KeelSVM(solver="keel"), PDFC(solver="keel"),
    KeelRipper(), FURIA(), KeelPART(),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


PAPER_NAMES = {
    "raeder2010": ["C4.5", "HDDT", "NB", "MLP", "5-NN", "SMO"],
    "moreno_torres2012": ["1NN", "3NN", "C4.5", "LDA", "PART", "RIPPER", "SVM", "FURIA", "PDFC"],
    "vanwinckelen2012": ["NB", "4NN", "10NN", "LR", "DT", "RF"],
    "japkowicz2011": ["NB", "C4.5", "IBk-3", "JRip", "SMO", "Bagging", "Boosting", "RF", "1R", "Perceptron"],
}


@pytest.mark.parametrize("study", sorted(PAPER_NAMES))
def test_every_paper_name_is_available(study):
    for name in PAPER_NAMES[study]:
        est = make_learner(name, random_state=0)
        assert hasattr(est, "fit") and hasattr(est, "predict_proba"), name


def test_list_learners_marks_stand_ins():
    table = list_learners()
    assert set(table["name"]) == set(LEARNERS)
    assert set(table["status"]) <= {"faithful", "stand-in"}
    status = table.set_index("name")["status"]
    assert status["C4.5"] == status["HDDT"] == status["NB"] == status["PART"] == status["Boosting"] == "faithful"
    assert status["FURIA"] == status["RIPPER"] == "faithful"
    assert status["JRip"] == status["OneR"] == "faithful"
    assert status["1NN"] == status["3NN"] == status["LDA"] == status["SVM"] == status["PDFC"] == "faithful"
    assert "compiled KEEL" in table.set_index("name").loc["FURIA", "note"]


def test_unknown_learner_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown learner 'C5.0'.*C4.5"):
        make_learner("C5.0")
    with pytest.raises(TypeError):
        make_learner(45)
