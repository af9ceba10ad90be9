"""What an event gives out as a file or on paper (L6): its Excel workbooks (``exports``) and its
rule card (``rulecard``). The print pages are views (``views.paper``) over the same reads."""
