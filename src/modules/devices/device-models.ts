/**
 * The shipped catalogue of access points and gateways that can send guests to an external captive
 * portal and ask a RADIUS server (or a grant URL) to let them in. create-device's model_id is one of
 * these ids; GET /api/device-models serves the list. Ids are stable: never rename one.
 */
export interface DeviceModel {
  id: string;
  vendor: string;
  name: string;
}

export const DEVICE_MODELS: readonly DeviceModel[] = Object.freeze([
  { id: "openwrt-generic", vendor: "OpenWrt", name: "Any OpenWrt router (CoovaChilli or openNDS package)" },
  { id: "coovachilli", vendor: "CoovaChilli", name: "CoovaChilli gateway on a Linux host" },
  { id: "glinet-gl-ar750s", vendor: "GL.iNet", name: "GL-AR750S Slate" },
  { id: "glinet-gl-mt3000", vendor: "GL.iNet", name: "GL-MT3000 Beryl AX" },
  { id: "meraki-mr36", vendor: "Cisco Meraki", name: "MR36" },
  { id: "meraki-mr46", vendor: "Cisco Meraki", name: "MR46" },
  { id: "meraki-mr57", vendor: "Cisco Meraki", name: "MR57" },
  { id: "meraki-mx68w", vendor: "Cisco Meraki", name: "MX68W" },
  { id: "ubiquiti-uap-ac-lite", vendor: "Ubiquiti", name: "UniFi AP AC Lite" },
  { id: "ubiquiti-u6-lite", vendor: "Ubiquiti", name: "UniFi U6 Lite" },
  { id: "ubiquiti-u6-pro", vendor: "Ubiquiti", name: "UniFi U6 Pro" },
  { id: "tplink-eap225", vendor: "TP-Link", name: "Omada EAP225" },
  { id: "tplink-eap650", vendor: "TP-Link", name: "Omada EAP650" },
  { id: "mikrotik-hap-ac2", vendor: "MikroTik", name: "hAP ac2 (HotSpot)" },
  { id: "mikrotik-cap-ax", vendor: "MikroTik", name: "cAP ax (HotSpot)" },
  { id: "ruckus-r550", vendor: "Ruckus", name: "R550" },
  { id: "aruba-ap-505", vendor: "HPE Aruba Networking", name: "AP-505 (Instant)" },
]);

const BY_ID = new Map(DEVICE_MODELS.map((m) => [m.id, m]));

export function findDeviceModel(id: string): DeviceModel | undefined {
  return BY_ID.get(id);
}
