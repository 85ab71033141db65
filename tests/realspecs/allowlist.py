"""Spec faults: problems the documents themselves cause, each named with the spec's own error.

A problem of a call is allowed only when an entry names its spec, its operation (``METHOD path``
as the catalog has it, or the tool name), its kind and a piece of its message. Keep this list
short and honest: an entry is a fault of the document (a default that violates its schema, a
``required`` property the schema never defines, ``nullable`` where OpenAPI 3.0.3 gives it no
effect), never a defect of the generator or runtime. Entries that matched nothing in a run are
listed in the summary, so that a stale one is noticed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SpecFault:
    spec: str
    operation: str  # "POST /v1/chat/completions" (catalog path) or a tool name
    kind: str  # rejected | altered | refused | failed | unusable
    match: str  # a substring of the problem message
    reason: str

    def allows(self, spec: str, operation: str, tool: str, kind: str, message: str) -> bool:
        return (
            spec == self.spec
            and self.operation in (operation, tool)
            and kind == self.kind
            and self.match in message
        )


_NULLABLE_ONE_OF = (
    "OpenAPI 3.0.3 applies `nullable` only beside `type`; this property has `nullable: true` "
    "beside `oneOf` and no `type`, so the document refuses the null the API documents"
)
_NULLABLE_ENUM = (
    "`nullable: true` with an `enum` that does not list null: by OpenAPI 3.0.3 (and the "
    "nullable clarification) null is still refused"
)

SPEC_FAULTS = (
    SpecFault(
        "github",
        "POST /repos/{owner}/{repo}/issues",
        "rejected",
        "milestone: None is not valid under any of the given schemas",
        f"`milestone`: {_NULLABLE_ONE_OF}",
    ),
    SpecFault(
        "github",
        "PUT /orgs/{org}/properties/schema/{custom_property_name}",
        "rejected",
        "default_value: None is not valid under any of the given schemas",
        f"custom-property-set-payload `default_value`: {_NULLABLE_ONE_OF}; `values_editable_by`: "
        f"{_NULLABLE_ENUM}",
    ),
    SpecFault(
        "openai",
        "POST /chat/completions",
        "rejected",
        "'inf' is not of type 'integer'",
        "CreateChatCompletionRequest `max_tokens` has `default: inf`, which is not an integer "
        "(openapi-core fills defaults in before validating)",
    ),
    SpecFault(
        "openai",
        "POST /completions",
        "rejected",
        "prompt: None is not valid under any of the given schemas",
        f"CreateCompletionRequest `prompt`: {_NULLABLE_ONE_OF}",
    ),
    SpecFault(
        "openai",
        "POST /images/generations",
        "rejected",
        "response_format: None is not one of",
        f"CreateImageRequest `response_format` and `size`: {_NULLABLE_ENUM}",
    ),
    SpecFault(
        "jira",
        "POST /rest/api/3/issue/{issueIdOrKey}/attachments",
        "rejected",
        "is not of type 'string'",
        "the multipart/form-data body's schema is a binary string, not an object of parts (the "
        "API wants parts named `file`), so no multipart request can satisfy it",
    ),
    SpecFault(
        "box",
        "POST /oauth2/revoke",
        "rejected",
        "'grant_type' is a required property",
        "PostOAuth2Revoke lists `grant_type` in `required` but defines no such property",
    ),
    SpecFault(
        "box",
        "put_files_id_remove_shared_link",
        "altered",
        "query parameter 'fields' arrived as",
        "Box describes a second PUT /files/{file_id} under the path key "
        "`/files/{file_id}#remove_shared_link`; a fragment is never sent, so the validator reads "
        "the request as the main operation, whose `fields` is an array",
    ),
    SpecFault(
        "box",
        "put_files_id_remove_shared_link",
        "rejected",
        "shared_link: None for not nullable",
        "the same `#remove_shared_link` path key: its `shared_link: null` is judged by the main "
        "operation's schema, where `shared_link` is not nullable",
    ),
    SpecFault(
        "superset",
        "PUT /chart/{pk}",
        "rejected",
        "datasource_type: None is not one of",
        f"ChartRestApi.put `datasource_type`: {_NULLABLE_ENUM}",
    ),
    SpecFault(
        "superset",
        "PUT /report/{pk}",
        "rejected",
        "validator_type: None is not one of",
        f"ReportScheduleRestApi.put `validator_type`: {_NULLABLE_ENUM}",
    ),
)
