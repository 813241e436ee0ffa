"""The API's edge: servicers, protobuf conversions, statuses for errors, request guards and the call observer,
served over gRPC and over Connect. It calls into the match domain; the domain never imports it."""
