"""Reading the spec: bytes from a file or stdin, ``$ref``s in any position, overlays and Swagger 2.0
conversion, into one OpenAPI 3 document, checked for shape.
"""
