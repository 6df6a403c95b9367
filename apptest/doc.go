// Package apptest is the test kit the end-to-end, accuracy and browser
// suites share: it starts the real service in process (app.RunWith on a
// free port, against the tests' ClickHouse and PostgreSQL databases),
// sends requests and checks every answer against the OpenAPI document,
// creates accounts and keys, runs simulations with their ground truth and
// scores the risk detectors against it. Only tests import it.
package apptest
