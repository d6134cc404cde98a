"""retrieval: chunks of code and tests, offline embeddings, an incremental FAISS index, hybrid search."""
