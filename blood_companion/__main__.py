from blood_companion.cli.entry import console

console()
