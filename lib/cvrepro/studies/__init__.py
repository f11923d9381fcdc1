"""Study-specific analyses: one module per reproduced paper."""
