"""Words any front end can render: everything a person reads about a game.

The words layer imports only the core.  A line of words is a list of
:class:`~conquian.present.spans.Span`; a card is a span that carries the card itself,
so each front end draws it its own way (the terminal in colour, the browser as a chip).
"""
