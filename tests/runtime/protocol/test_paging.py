"""Which arguments page through a collection, by their names: what a result cut to its budget
tells the model to call again with."""

from __future__ import annotations

from templates.runtime.protocol.paging import pagination_arguments, paging_advice


def test_bracketed_and_dotted_paging_names_are_paging_arguments() -> None:
    parameters = [
        # Strapi's, read by qs; JSON:API's; a dotted one
        ("pagination[page]", "query", "pagination_page"),
        ("pagination[pageSize]", "query", "pagination_pageSize"),
        ("page[number]", "query", "page_number"),
        ("page.size", "query", "page_size"),
        ("filters[title][$eq]", "query", "filters_title_eq"),
        ("sort", "query", "sort"),
        ("page", "header", "page"),  # only the query pages
    ]
    paging = pagination_arguments(parameters)
    assert paging == ("pagination_page", "pagination_pageSize", "page_number", "page_size")
    assert paging_advice(paging) == (
        " To get the rest, call again for fewer at a time (pagination_pageSize, page_size) and "
        "page on with pagination_page, page_number: a next page starts after what this call asked "
        "for, not after what is shown."
    )
