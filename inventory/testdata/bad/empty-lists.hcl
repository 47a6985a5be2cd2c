policy {
  roce { dscp = [] }
  ecmp { hash_fields = [] }
}
