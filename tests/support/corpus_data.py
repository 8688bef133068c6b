"""A small seeded corpus for the corpus tests: Zipfian words, titles, Unicode, repeated query words."""

import random

WORDS = ["el", "de", "la", "bm25", "chunk", "índice", "Ölpreis", "σοφία", "naïve", "x_1", "2024"]


def vocabulary(size: int, rng: random.Random) -> list:
    letters = "abcdefghijklmnopqrstuvwxyzáéíóúñ"
    words = list(WORDS)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(letters) for _ in range(rng.randint(2, 8)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def zipf_corpus(documents=120, mean_tokens=90, queries=40, size=1500, seed=38):
    """``({id: (title, text)}, {qid: text})``: documents of varied length (some empty), some with titles."""
    rng = random.Random(seed)
    words = vocabulary(size, rng)
    weights = [1 / (rank + 1) ** 1.1 for rank in range(size)]
    corpus = {}
    for number in range(documents):
        length = 0 if number % 37 == 5 else max(1, int(rng.expovariate(1 / mean_tokens)))
        chosen = rng.choices(words, weights, k=length)
        text = " ".join(word.upper() if rng.random() < 0.05 else word for word in chosen)
        text = text.replace(" ", ", ", length // 7) + ("." if length else "")
        title = " ".join(rng.choices(words, weights, k=rng.randint(1, 4))) if number % 3 == 0 else ""
        corpus[f"doc-{number}"] = (title, text)
    asked = {}
    for number in range(queries):
        chosen = rng.choices(words, weights, k=rng.randint(1, 9))
        if number % 4 == 0:
            chosen.append(chosen[0])  # a repeated word counts twice
        asked[f"q{number}"] = " ".join(chosen)
    asked["q-unknown"] = "palabrasinexistente"
    return corpus, asked
