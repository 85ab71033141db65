"""The intermediate representation and the parser that fills it: what the generator knows about an API,
independent of OpenAPI (operations, parameters, bodies, JSON Schema 2020-12 per direction).
"""
