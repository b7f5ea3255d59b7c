"""The renderer's labels: boxes match the cards drawn, cover lowers visibility, non-belote cards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tiny_deck import tiny_design

from vision import augment
from vision.render import MIN_VISIBLE, Camera, Occluder, Placement, TableScene

SIZE = (320, 240)
GREEN = np.full((32, 32, 3), (30, 110, 40), np.uint8)


@pytest.fixture(scope="module")
def design():
    return tiny_design()


def _scene(design, camera=None, seed=0):
    return TableScene(design, GREEN, SIZE, seed=seed, camera=camera, card_height=80)


def _card_pixels_box(image: np.ndarray, background: np.ndarray) -> tuple[int, int, int, int]:
    """Box of the pixels much brighter than the table: the card's white paper and ink."""
    diff = np.abs(image.astype(int) - background.astype(int)).sum(axis=2)
    ys, xs = np.nonzero(diff > 120)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


@pytest.mark.parametrize("angle", [0, 17, 90, 133])
@pytest.mark.parametrize("tilted", [False, True])
def test_box_matches_the_card_drawn(design, angle, tilted):
    camera = Camera.random(random.Random(angle), SIZE, tilt=0.15, rotate=30) if tilted else None
    scene = _scene(design, camera)
    empty, _ = scene.render([], effects=False)
    image, labels = scene.render([Placement("QH", (160, 120), angle=angle)], effects=False)
    drawn = _card_pixels_box(image, empty)
    assert labels[0].labelled
    assert labels[0].visible == pytest.approx(1.0, abs=0.06)
    np.testing.assert_allclose(labels[0].box, drawn, atol=2.5)


def test_card_half_out_of_frame_is_clipped_and_less_visible(design):
    scene = _scene(design)
    _, labels = scene.render([Placement("7S", (SIZE[0], 120))], effects=False)
    x1 = labels[0].box[2]
    assert x1 == SIZE[0]
    assert 0.35 < labels[0].visible < 0.65
    _, gone = scene.render([Placement("7S", (SIZE[0] + 200, 120))], effects=False)
    assert gone[0].visible == 0 and not gone[0].labelled


def test_card_below_another_loses_visibility_by_the_overlap(design):
    scene = _scene(design)
    _, alone = scene.render([Placement("8D", (150, 120))], effects=False)
    _, both = scene.render(
        [Placement("8D", (150, 120), z=0), Placement("9C", (180, 120), z=1)], effects=False
    )
    assert both[1].visible == pytest.approx(1.0, abs=0.06)
    assert both[0].visible < alone[0].visible - 0.3
    # Swapping z swaps who is covered.
    _, swapped = scene.render(
        [Placement("8D", (150, 120), z=1), Placement("9C", (180, 120), z=0)], effects=False
    )
    assert swapped[0].visible > swapped[1].visible


def test_seen_box_is_the_strip_not_under_the_card_on_top(design):
    scene = _scene(design)
    width = 80 * 100 / 140
    under, over = Placement("KC", (160, 120), z=0), Placement("AC", (160 + 0.3 * width, 120), z=1)
    _, labels = scene.render([under, over], effects=False)
    whole, seen = labels[0].box, labels[0].seen_box
    assert (seen[0], seen[1], seen[3]) == pytest.approx((whole[0], whole[1], whole[3]), abs=1)
    # The visible strip ends where the card on top starts: its left edge.
    assert seen[2] == pytest.approx(labels[1].box[0], abs=1.5)
    assert seen[2] - seen[0] == pytest.approx(0.3 * width, abs=2)
    assert labels[1].seen_box == pytest.approx(labels[1].box, abs=1)


def test_seen_box_ignores_a_hand_on_the_card(design):
    scene = _scene(design)
    _, clear = scene.render([Placement("JC", (160, 120))], effects=False)
    _, covered = scene.render(
        [Placement("JC", (160, 120))], [Occluder("hand", (150, 120), angle=0, seed=3)],
        effects=False,
    )
    assert covered[0].visible < clear[0].visible - 0.2
    assert covered[0].seen_box == pytest.approx(clear[0].box, abs=1)


def test_fully_covered_card_is_not_labelled(design):
    scene = _scene(design)
    _, labels = scene.render(
        [Placement("AS", (160, 120), z=0), Placement("KS", (160, 120), z=1)], effects=False
    )
    assert labels[0].visible < MIN_VISIBLE and not labels[0].labelled
    assert labels[1].labelled


def test_hand_over_a_card_hides_part_of_it(design):
    scene = _scene(design)
    _, clear = scene.render([Placement("JC", (160, 120))], effects=False)
    _, covered = scene.render(
        [Placement("JC", (160, 120))],
        [Occluder("hand", (150, 120), angle=0, seed=3)],
        effects=False,
    )
    assert covered[0].visible < clear[0].visible - 0.2


def test_corner_indices_hidden_means_not_labelled(design):
    scene = _scene(design)
    card = Placement("TD", (160, 120))
    _, clear = scene.render([card], effects=False)
    assert len(clear[0].corners) == 2 and clear[0].labelled
    # A small phone over each corner index; most of the card stays visible.
    phones = [
        Occluder("phone", ((x0 + x1) / 2, (y0 + y1) / 2), 0, 0.4)
        for x0, y0, x1, y1 in clear[0].corners
    ]
    _, covered = scene.render([card], phones, effects=False)
    assert covered[0].visible > MIN_VISIBLE
    assert covered[0].corners == () and not covered[0].labelled
    _, one = scene.render([card], phones[:1], effects=False)
    assert len(one[0].corners) == 1 and one[0].labelled


@pytest.mark.parametrize(("strip", "labelled"), [(0.24, True), (0.12, False)])
def test_fanned_card_with_a_whole_corner_index_is_labelled(design, strip, labelled):
    scene = _scene(design)
    width = 80 * 100 / 140
    under = Placement("KC", (160, 120), z=0)
    over = Placement("AC", (160 + strip * width, 120), z=1)
    _, labels = scene.render([under, over], effects=False)
    assert labels[0].visible == pytest.approx(strip, abs=0.04)
    assert labels[0].visible < MIN_VISIBLE
    assert labels[0].labelled is labelled


@pytest.mark.parametrize("name", ["back", "2S", "JOKER_RED"])
def test_backs_and_distractors_are_never_labelled(design, name):
    scene = _scene(design)
    _, labels = scene.render([Placement(name, (160, 120))], effects=False)
    assert labels[0].visible > 0.9 and not labels[0].labelled


def test_unknown_card_and_occluder_are_errors(design):
    scene = _scene(design)
    with pytest.raises(KeyError, match="3H"):
        scene.render([Placement("3H", (160, 120))])
    with pytest.raises(ValueError, match="cat"):
        scene.render([], [Occluder("cat", (10, 10))])


def test_same_seed_same_image_and_labels(design):
    placements = [Placement("7H", (100, 100), 30), Placement("AH", (200, 140), -10, z=1)]
    hands = [Occluder("hand", (60, 200), -45, seed=2), Occluder("glass", (250, 60))]
    runs = []
    for _ in range(2):
        scene = TableScene(
            design, None, SIZE, seed=11, camera=Camera.random(random.Random(4), SIZE)
        )
        runs.append(scene.render(placements, hands, rng=random.Random(5)))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1]
    other = TableScene(design, None, SIZE, seed=12).render(placements, hands, rng=random.Random(6))
    assert not np.array_equal(other[0], runs[0][0])


def test_effects_keep_shape_and_type():
    rng = random.Random(0)
    image = np.full((240, 320, 3), 128, np.uint8)
    for _ in range(10):
        out = augment.finish(image, rng)
        assert out.shape == image.shape and out.dtype == np.uint8


def test_seat_spots_follow_image_sides(design):
    scene = _scene(design)
    n, s, w, e = (scene.seat_spot(seat) for seat in "NSWE")
    assert n[1] < s[1] and w[0] < e[0]
