/** The parameters of create-or-update-location that every API benchmark location shares. */
export function benchLocationParams(name: string, street: string): Record<string, string> {
  return {
    location_name: name,
    address1: street,
    town: "Springfield",
    state: "IL",
    zipcode: "62701",
    country: "US",
    phone_number: "(217)555-0100",
    timezone: "America/Chicago",
  };
}
