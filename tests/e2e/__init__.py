"""The real-host suite as a package (`e2e`): its conftest and mocks import as `e2e.<module>`,
so they never shadow the unit suite's own `conftest` module (both would be `conftest`)."""
