global using Lightning.Bench.Tests.Support;
global using Xunit;
