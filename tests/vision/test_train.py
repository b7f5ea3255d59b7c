"""The training recipe: shipped file readable, flags override it, offline options forced."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.train import RECIPE, RecipeError, check_data, load_recipe, ultralytics_options


def test_shipped_recipe_names_an_architecture_that_exists():
    recipe = load_recipe(RECIPE)
    assert (RECIPE.parent.parent / recipe.model).exists()
    assert recipe.train_args.get("fliplr") == 0.0  # a mirrored card is no card


def test_flags_override_the_recipe_and_none_keeps_it():
    recipe = load_recipe(RECIPE, epochs=3, imgsz=None, data="d.yaml")
    assert recipe.epochs == 3 and recipe.data == "d.yaml"
    assert recipe.imgsz == load_recipe(RECIPE).imgsz


def test_options_keep_training_offline_and_on_the_cpu(tmp_path: Path):
    opts = ultralytics_options(load_recipe(RECIPE, hours=0.5), tmp_path / "run")
    assert opts["amp"] is False and opts["plots"] is False and opts["pretrained"] is False
    assert opts["device"] == "cpu" and opts["time"] == 0.5
    assert opts["name"] == "run" and Path(opts["project"]) == tmp_path.resolve()


def test_the_gpu_recipe_trains_on_the_first_gpu_unless_told_otherwise(tmp_path: Path):
    gpu = RECIPE.with_name("card_boxes_gpu_recipe.yaml")
    assert ultralytics_options(load_recipe(gpu), tmp_path / "r")["device"] == "0"
    assert ultralytics_options(load_recipe(gpu, device="cpu"), tmp_path / "r")["device"] == "cpu"
    assert (RECIPE.parent.parent / load_recipe(gpu).train_args["pretrained"]).exists()


def test_unknown_option_and_missing_file_are_named(tmp_path: Path):
    bad = tmp_path / "r.yaml"
    bad.write_text("model: m.yaml\ndata: d.yaml\nepoch: 3\n")
    with pytest.raises(RecipeError, match=r"unknown option.*epoch"):
        load_recipe(bad)
    with pytest.raises(RecipeError, match="cannot read recipe"):
        load_recipe(tmp_path / "none.yaml")
    with pytest.raises(RecipeError, match="dataset not found"):
        check_data(str(tmp_path / "data.yaml"))


def test_box_recipe_trains_one_class_from_the_shipped_detector():
    recipe = load_recipe(RECIPE.with_name("card_boxes_recipe.yaml"))
    root = RECIPE.parent.parent
    assert recipe.train_args["single_cls"] is True
    assert (root / recipe.train_args["pretrained"]).exists()
    assert (root / recipe.model).exists()


@pytest.mark.parametrize(("nc", "name"), [(1, "card_boxes"), (32, "card_detector")])
def test_export_installs_a_box_model_under_its_own_name(tmp_path: Path, nc: int, name: str):
    torch = pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    from ultralytics.nn.tasks import DetectionModel

    from vision.export import shipped_name

    model = DetectionModel(str(RECIPE.parent / "card_detector_arch.yaml"), nc=nc, verbose=False)
    model.names = {i: str(i) for i in range(nc)}
    torch.save({"model": model, "ema": None}, tmp_path / "w.pt")
    assert shipped_name(tmp_path / "w.pt") == name


def test_the_box_model_second_step_continues_the_first_on_a_mix():
    first = load_recipe(RECIPE.with_name("card_boxes_recipe.yaml"))
    second = load_recipe(RECIPE.with_name("card_boxes_mix_recipe.yaml"))
    assert second.train_args["single_cls"] is True and second.model == first.model
    # it starts from the weights step 1 writes (its documented --out folder)
    assert second.train_args["pretrained"] == "runs/boxes_v1/weights/best.pt"
    assert "runs/boxes_v1" in RECIPE.with_name("card_boxes_recipe.yaml").read_text()
    assert second.data == "data/boxmix/data.yaml"
    assert second.train_args["lr0"] < first.train_args["lr0"]  # a continuation: gentler steps
